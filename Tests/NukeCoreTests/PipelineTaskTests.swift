import Testing

@testable import NukeCore

/// A task whose work the test drives by hand.
private final class ManualTask: PipelineTask<Int>, @unchecked Sendable {
    var startCount = 0
    var cancelCount = 0
    var dependencyTask: ManualTask?
    var receivedFromDependency: [Int] = []
    var valueOnStart: Int?

    override func start() {
        startCount += 1
        if let valueOnStart {
            send(value: valueOnStart, isCompleted: true)
            return
        }
        onCancelled = { [unowned self] in cancelCount += 1 }
        if let dependencyTask {
            subscribe(to: dependencyTask) { [unowned self] event in
                if case let .value(value, isCompleted) = event {
                    receivedFromDependency.append(value)
                    send(value: value * 10, isCompleted: isCompleted)
                }
            }
        }
    }
}

private final class EventLog {
    var events: [String] = []

    func handler(_ name: String) -> PipelineTask<Int>.Handler {
        { event in
            switch event {
            case let .value(value, isCompleted): self.events.append("\(name): value \(value) \(isCompleted)")
            case let .progress(progress): self.events.append("\(name): progress \(progress.completed)")
            case let .error(error): self.events.append("\(name): error \(error.caseName)")
            }
        }
    }
}

@Suite struct PipelineTaskTests {
    @Test func startsOnFirstSubscriberOnly() {
        let task = ManualTask()
        #expect(task.startCount == 0)
        _ = task.subscribe(priority: .normal) { _ in }
        _ = task.subscribe(priority: .normal) { _ in }
        #expect(task.startCount == 1)
    }

    @Test func eventsReachAllSubscribers() {
        let task = ManualTask()
        let log = EventLog()
        _ = task.subscribe(priority: .normal, log.handler("a"))
        _ = task.subscribe(priority: .normal, log.handler("b"))
        task.send(progress: TaskProgress(completed: 1, total: 2))
        task.send(value: 5, isCompleted: false)
        task.send(value: 6, isCompleted: true)
        task.send(value: 7, isCompleted: true)  // ignored after completion
        #expect(
            log.events == [
                "a: progress 1", "b: progress 1", "a: value 5 false", "b: value 5 false", "a: value 6 true",
                "b: value 6 true",
            ])
    }

    @Test func errorEndsTheTaskForEveryone() {
        let task = ManualTask()
        let log = EventLog()
        _ = task.subscribe(priority: .normal, log.handler("a"))
        _ = task.subscribe(priority: .normal, log.handler("b"))
        task.send(error: .dataIsEmpty)
        task.send(value: 1, isCompleted: true)
        #expect(log.events == ["a: error dataIsEmpty", "b: error dataIsEmpty"])
        #expect(task.isDisposed)
    }

    @Test func disposalRunsOnceOnCompletion() {
        let task = ManualTask()
        var disposals = 0
        task.onDisposed = { disposals += 1 }
        _ = task.subscribe(priority: .normal) { _ in }
        task.send(value: 1, isCompleted: true)
        task.send(error: .dataIsEmpty)
        #expect(disposals == 1)
        #expect(task.subscribe(priority: .normal) { _ in } == nil)
    }

    @Test func cancelledOnlyWhenTheLastSubscriberLeaves() throws {
        let task = ManualTask()
        var disposals = 0
        task.onDisposed = { disposals += 1 }
        let first = try #require(task.subscribe(priority: .normal) { _ in })
        let second = try #require(task.subscribe(priority: .normal) { _ in })

        first.unsubscribe()
        #expect(task.cancelCount == 0)
        #expect(!task.isDisposed)

        second.unsubscribe()
        #expect(task.cancelCount == 1)
        #expect(task.isDisposed)
        #expect(disposals == 1)

        second.unsubscribe()  // idempotent
        #expect(task.cancelCount == 1)
    }

    @Test func cancellationCascadesToDependency() throws {
        // Given a task with a dependency
        let dependency = ManualTask()
        let task = ManualTask()
        task.dependencyTask = dependency
        let subscription = try #require(task.subscribe(priority: .normal) { _ in })
        #expect(dependency.startCount == 1)

        // When the only subscriber leaves
        subscription.unsubscribe()

        // Then both are cancelled
        #expect(task.cancelCount == 1)
        #expect(dependency.cancelCount == 1)
        #expect(dependency.isDisposed)
    }

    @Test func dependencySharedByTwoTasksSurvivesOneCancellation() throws {
        let dependency = ManualTask()
        let task1 = ManualTask()
        let task2 = ManualTask()
        task1.dependencyTask = dependency
        task2.dependencyTask = dependency
        let subscription1 = try #require(task1.subscribe(priority: .normal) { _ in })
        let log = EventLog()
        _ = task2.subscribe(priority: .normal, log.handler("task2"))

        subscription1.unsubscribe()
        #expect(dependency.cancelCount == 0)

        dependency.send(value: 3, isCompleted: true)
        #expect(log.events == ["task2: value 30 true"])
        #expect(dependency.startCount == 1)
    }

    @Test func priorityIsTheMaximumOfSubscribers() throws {
        let task = ManualTask()
        let low = try #require(task.subscribe(priority: .low) { _ in })
        #expect(task.priority == .low)
        let high = try #require(task.subscribe(priority: .high) { _ in })
        #expect(task.priority == .high)

        // Lowering the high subscriber lowers the task to the new maximum
        high.setPriority(.veryLow)
        #expect(task.priority == .low)

        // A subscriber leaving lets the priority fall back
        high.setPriority(.veryHigh)
        #expect(task.priority == .veryHigh)
        high.unsubscribe()
        #expect(task.priority == .low)
        _ = low
    }

    @Test func priorityPropagatesToDependencyAndOperation() throws {
        let dependency = ManualTask()
        let task = ManualTask()
        task.dependencyTask = dependency
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        dependency.operation = queue.add { _ in }

        let subscription = try #require(task.subscribe(priority: .low) { _ in })
        #expect(dependency.priority == .low)
        #expect(dependency.operation?.priority == .low)

        subscription.setPriority(.veryHigh)
        #expect(task.priority == .veryHigh)
        #expect(dependency.priority == .veryHigh)
        #expect(dependency.operation?.priority == .veryHigh)

        subscription.setPriority(.low)
        #expect(dependency.priority == .low)
        #expect(dependency.operation?.priority == .low)
    }

    @Test func cancellationCancelsTheQueuedOperation() throws {
        let task = ManualTask()
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        let subscription = try #require(task.subscribe(priority: .normal) { _ in })
        task.operation = queue.add { _ in }
        #expect(queue.pendingCount == 1)

        subscription.unsubscribe()

        #expect(queue.pendingCount == 0)
        #expect(task.operation?.state == .cancelled)
    }

    @Test func taskThatFinishesWhileStartingDeliversAndReturnsNoSubscription() {
        // Given a task that completes while starting (like a memory cache hit)
        let task = ManualTask()
        task.valueOnStart = 4
        let log = EventLog()

        // When subscribing
        let subscription = task.subscribe(priority: .normal, log.handler("a"))

        // Then the subscriber got the value and holds nothing
        #expect(subscription == nil)
        #expect(log.events == ["a: value 4 true"])
        #expect(task.isDisposed)
    }

    @Test func dependencyFinishingWhileSubscribingIsReleased() {
        let dependency = ManualTask()
        dependency.valueOnStart = 2
        let task = ManualTask()
        task.dependencyTask = dependency
        let log = EventLog()
        _ = task.subscribe(priority: .normal, log.handler("a"))
        #expect(log.events == ["a: value 20 true"])
        #expect(task.isDisposed)
        #expect(dependency.isDisposed)
    }
}

extension PipelineTask {
    /// Subscribes on behalf of a public task with an empty request.
    fileprivate func subscribe(priority: ImageRequest.Priority, _ handler: @escaping Handler) -> TaskSubscription? {
        subscribe(priority: priority, owner: .request(ImageRequest(url: nil)), handler)
    }
}
