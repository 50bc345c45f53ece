import Dispatch
import Testing

@testable import NukeCore

@Suite struct TaskQueueTests {
    typealias Operation = TaskQueue.Operation

    // MARK: Starting work

    @Test func runsWorkImmediatelyWhenASlotIsFree() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let started = LockedValueBox(false)
        let operation = queue.add { _ in started.withLock { $0 = true } }

        #expect(started.snapshot)
        #expect(operation.state == .running)
        #expect(queue.runningCount == 1)
        #expect(queue.pendingCount == 0)

        operation.finish()
        #expect(operation.state == .finished)
        #expect(queue.runningCount == 0)
    }

    @Test func workReceivesItsOwnOperation() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let received = LockedValueBox<[ObjectIdentifier]>([])
        let record: @Sendable (Operation) -> Void = { operation in
            received.withLock { $0.append(ObjectIdentifier(operation)) }
        }
        let first = queue.add(record)
        let second = queue.add(record)
        first.finish()
        #expect(received.snapshot == [ObjectIdentifier(first), ObjectIdentifier(second)])
    }

    @Test func respectsTheLimit() {
        let queue = TaskQueue(maxConcurrentOperationCount: 2)
        let started = LockedValueBox<[Int]>([])
        let operations = (0..<3).map { index in queue.add { _ in started.withLock { $0.append(index) } } }

        #expect(started.snapshot == [0, 1])
        #expect(queue.runningCount == 2)
        #expect(queue.pendingCount == 1)
        #expect(operations[2].state == .pending)

        operations[1].finish()
        #expect(started.snapshot == [0, 1, 2])
        #expect(operations[2].state == .running)
        #expect(queue.runningCount == 2)
        #expect(queue.pendingCount == 0)
    }

    // MARK: Order

    @Test func startsPendingWorkInPriorityOrder() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let blocker = queue.add { _ in }
        let log = LockedValueBox<[ImageRequest.Priority]>([])
        for priority in [ImageRequest.Priority.low, .high, .veryLow, .normal, .veryHigh] {
            queue.add(priority: priority) { operation in
                log.withLock { $0.append(priority) }
                operation.finish()
            }
        }
        #expect(log.snapshot.isEmpty)

        blocker.finish()
        #expect(log.snapshot == [.veryHigh, .high, .normal, .low, .veryLow])
        #expect(queue.runningCount == 0)
        #expect(queue.pendingCount == 0)
    }

    @Test func startsWorkOfTheSamePriorityFirstInFirstOut() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let blocker = queue.add(priority: .veryHigh) { _ in }
        let log = LockedValueBox<[Int]>([])
        for index in 0..<10 {
            queue.add(priority: .low) { operation in
                log.withLock { $0.append(index) }
                operation.finish()
            }
        }
        blocker.finish()
        #expect(log.snapshot == Array(0..<10))
    }

    @Test func changingThePriorityOfPendingWorkReordersIt() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let blocker = queue.add { _ in }
        let log = LockedValueBox<[String]>([])
        func add(_ name: String, _ priority: ImageRequest.Priority) -> Operation {
            queue.add(priority: priority) { operation in
                log.withLock { $0.append(name) }
                operation.finish()
            }
        }
        let a = add("a", .normal)
        let b = add("b", .normal)
        let c = add("c", .normal)
        _ = add("d", .high)
        _ = add("e", .normal)

        c.priority = .high  // Goes behind "d", which already had that priority.
        a.priority = .low
        b.priority = .normal  // Unchanged: keeps its place ahead of "e".
        #expect(c.priority == .high)
        #expect(queue.pendingCount == 5)

        blocker.finish()
        #expect(log.snapshot == ["d", "c", "b", "e", "a"])
    }

    @Test func changingThePriorityOfStartedWorkHasNoEffect() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let operation = queue.add(priority: .low) { _ in }
        operation.priority = .veryHigh
        #expect(operation.priority == .veryHigh)
        #expect(operation.state == .running)
        #expect(queue.pendingCount == 0)
        #expect(queue.storedEntryCount == 0)

        operation.finish()
        operation.priority = .veryLow
        #expect(operation.state == .finished)
        #expect(queue.runningCount == 0)
    }

    @Test func flippingPrioritiesDoesNotGrowMemory() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        let log = LockedValueBox<[Int]>([])
        let operations = (0..<10).map { index in
            queue.add { operation in
                log.withLock { $0.append(index) }
                operation.finish()
            }
        }
        for iteration in 0..<100_000 {
            operations[iteration % 3].priority = iteration.isMultiple(of: 2) ? .high : .low
        }
        #expect(queue.pendingCount == 10)
        #expect(queue.storedEntryCount < 500)

        // The last changes: 1 to .low, 2 to .high, 0 to .low. So 2 goes first, then the untouched .normal ones,
        // then 1 and 0 in the order they were last re-queued.
        #expect(operations.map(\.priority) == [.low, .low, .high] + Array(repeating: .normal, count: 7))
        queue.isSuspended = false
        #expect(log.snapshot == [2, 3, 4, 5, 6, 7, 8, 9, 1, 0])
    }

    // MARK: Cancellation

    @Test func cancellingPendingWorkRemovesIt() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let blocker = queue.add { _ in }
        let ran = LockedValueBox(false)
        let operation = queue.add { _ in ran.withLock { $0 = true } }
        let handlerCalls = LockedValueBox(0)
        operation.onCancel { handlerCalls.withLock { $0 += 1 } }
        #expect(queue.pendingCount == 1)

        operation.cancel()
        operation.cancel()
        #expect(operation.state == .cancelled)
        #expect(operation.isCancelled)
        #expect(queue.pendingCount == 0)
        #expect(queue.runningCount == 1)

        blocker.finish()
        operation.finish()
        #expect(!ran.snapshot)
        #expect(operation.state == .cancelled)
        #expect(handlerCalls.snapshot == 0)  // The work never started: nothing to stop.
        #expect(queue.runningCount == 0)
        #expect(queue.storedEntryCount == 0)
    }

    @Test func cancellingManyPendingOperationsDoesNotGrowMemory() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        let survivor = queue.add(priority: .low) { _ in }
        for _ in 0..<100_000 {
            queue.add(priority: .low) { _ in Issue.record("Cancelled work ran") }.cancel()
        }
        #expect(queue.pendingCount == 1)
        #expect(queue.storedEntryCount < 200)

        queue.isSuspended = false
        #expect(survivor.state == .running)
    }

    @Test func cancellingRunningWorkFreesItsSlot() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let log = LockedValueBox<[String]>([])
        let first = queue.add { operation in
            operation.onCancel { log.withLock { $0.append("first cancelled") } }
        }
        let second = queue.add { _ in log.withLock { $0.append("second started") } }
        #expect(second.state == .pending)

        first.cancel()
        // The handler runs before the freed slot is reused.
        #expect(log.snapshot == ["first cancelled", "second started"])
        #expect(first.state == .cancelled)
        #expect(second.state == .running)
        #expect(queue.runningCount == 1)

        // Late calls from the cancelled work change nothing, and don't free the second operation's slot.
        first.finish()
        first.cancel()
        #expect(first.state == .cancelled)
        #expect(queue.runningCount == 1)

        // A handler added after the cancellation runs at once.
        first.onCancel { log.withLock { $0.append("late handler") } }
        #expect(log.snapshot.last == "late handler")
        #expect(log.snapshot.count == 3)
    }

    @Test func cancelHandlersDoNotRunAfterFinishing() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let calls = LockedValueBox(0)
        let operation = queue.add { operation in operation.onCancel { calls.withLock { $0 += 1 } } }
        operation.finish()
        operation.cancel()
        operation.onCancel { calls.withLock { $0 += 1 } }
        #expect(operation.state == .finished)
        #expect(calls.snapshot == 0)
    }

    @Test func cancellingReleasesTheWork() {
        final class Canary: Sendable {}
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        weak var weakCanary: Canary?
        let operation: Operation
        do {
            let canary = Canary()
            weakCanary = canary
            operation = queue.add { _ in _ = canary }
        }
        #expect(weakCanary != nil)
        operation.cancel()
        #expect(weakCanary == nil)
    }

    /// Closures are released outside the queue's lock: the deinits of what they capture may use the queue.
    /// (If they weren't, these tests would deadlock.)
    @Test func closuresAreReleasedOutsideTheLock() {
        final class Canary: Sendable {
            let queue: TaskQueue
            let deinits: LockedValueBox<Int>
            init(_ queue: TaskQueue, _ deinits: LockedValueBox<Int>) {
                self.queue = queue
                self.deinits = deinits
            }
            deinit {
                _ = queue.pendingCount
                deinits.withLock { $0 += 1 }
            }
        }
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let deinits = LockedValueBox(0)
        func add(_ priority: ImageRequest.Priority = .normal, finishes: Bool) -> Operation {
            let canary = Canary(queue, deinits)
            return queue.add(priority: priority) { operation in
                _ = canary
                let handlerCanary = Canary(queue, deinits)
                operation.onCancel { _ = handlerCanary }
                if finishes { operation.finish() }
            }
        }
        _ = add(finishes: true)  // Work and handler released after running.
        #expect(deinits.snapshot == 2)

        let running = add(finishes: false)
        add(finishes: false).cancel()  // Pending work released on cancel.
        #expect(deinits.snapshot == 4)  // Including the running work, released after it was invoked.
        running.cancel()  // Handler released on cancel.
        #expect(deinits.snapshot == 5)

        _ = add(finishes: false)
        _ = add(finishes: false)
        queue.cancelAll()
        #expect(deinits.snapshot == 8)

        queue.isSuspended = true
        _ = add(finishes: false)
        _ = add(.high, finishes: false)
        queue.add { _ in }.priority = .low
        queue.isSuspended = false  // The .high work runs first, but doesn't finish.
        #expect(deinits.snapshot == 9)
        queue.cancelAll()  // Also breaks the cycle: queue, operation, work, canary, queue.
        #expect(deinits.snapshot == 11)
    }

    @Test func cancelAllCancelsPendingAndRunningWork() {
        let queue = TaskQueue(maxConcurrentOperationCount: 2)
        let handlerCalls = LockedValueBox(0)
        let started = LockedValueBox(0)
        let operations = (0..<5).map { _ in
            queue.add { operation in
                started.withLock { $0 += 1 }
                operation.onCancel { handlerCalls.withLock { $0 += 1 } }
            }
        }
        #expect(queue.runningCount == 2)
        #expect(queue.pendingCount == 3)

        queue.cancelAll()
        #expect(operations.allSatisfy { $0.state == .cancelled })
        #expect(queue.runningCount == 0)
        #expect(queue.pendingCount == 0)
        #expect(queue.storedEntryCount == 0)
        #expect(started.snapshot == 2)
        #expect(handlerCalls.snapshot == 2)

        // The queue stays usable.
        let next = queue.add { _ in }
        #expect(next.state == .running)
    }

    // MARK: Finishing

    @Test func finishIsIdempotent() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let operations = (0..<3).map { _ in queue.add { _ in } }
        operations[0].finish()
        operations[0].finish()
        #expect(operations[0].state == .finished)
        #expect(operations[1].state == .running)
        #expect(operations[2].state == .pending)
        #expect(queue.runningCount == 1)
        #expect(queue.pendingCount == 1)
    }

    @Test func finishingPendingWorkDoesNothing() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let blocker = queue.add { _ in }
        let operation = queue.add { _ in }
        operation.finish()
        #expect(operation.state == .pending)
        blocker.finish()
        #expect(operation.state == .running)
    }

    // MARK: Suspension and limits

    @Test func suspendedQueueStartsNothingUntilResumed() {
        let queue = TaskQueue(maxConcurrentOperationCount: 2)
        let running = queue.add { _ in }
        queue.isSuspended = true
        #expect(queue.isSuspended)

        let log = LockedValueBox<[ImageRequest.Priority]>([])
        let operations = [ImageRequest.Priority.low, .veryHigh, .normal].map { priority in
            queue.add(priority: priority) { _ in log.withLock { $0.append(priority) } }
        }
        running.finish()  // Frees a slot, but the queue is suspended.
        #expect(log.snapshot.isEmpty)
        #expect(queue.pendingCount == 3)
        #expect(queue.runningCount == 0)

        queue.isSuspended = false
        #expect(log.snapshot == [.veryHigh, .normal])
        #expect(queue.pendingCount == 1)

        operations[1].finish()
        #expect(log.snapshot == [.veryHigh, .normal, .low])
    }

    @Test func suspendingLetsRunningWorkContinue() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let operation = queue.add { _ in }
        queue.isSuspended = true
        #expect(operation.state == .running)
        operation.finish()
        #expect(operation.state == .finished)
    }

    @Test func raisingTheLimitStartsMoreWork() {
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let operations = (0..<5).map { _ in queue.add { _ in } }
        #expect(queue.runningCount == 1)

        queue.maxConcurrentOperationCount = 3
        #expect(queue.maxConcurrentOperationCount == 3)
        #expect(queue.runningCount == 3)
        #expect(queue.pendingCount == 2)

        // Lowering it lets running work continue but starts nothing new until below the limit.
        queue.maxConcurrentOperationCount = 1
        #expect(queue.runningCount == 3)
        operations[0].finish()
        operations[1].finish()
        #expect(queue.runningCount == 1)
        #expect(operations[3].state == .pending)
        operations[2].finish()
        #expect(operations[3].state == .running)
        #expect(queue.runningCount == 1)
    }

    // MARK: Recursion

    @Test func synchronouslyFinishingWorkDoesNotOverflowTheStack() {
        let count = 100_000
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        queue.isSuspended = true
        let runs = LockedValueBox(0)
        for _ in 0..<count {
            queue.add { operation in
                runs.withLock { $0 += 1 }
                operation.finish()
            }
        }
        queue.isSuspended = false
        #expect(runs.snapshot == count)
        #expect(queue.pendingCount == 0)
        #expect(queue.runningCount == 0)
    }

    @Test func workThatAddsWorkDoesNotOverflowTheStack() {
        let count = 100_000
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        let runs = LockedValueBox(0)
        @Sendable func step(_ operation: Operation) {
            let run = runs.withLock {
                $0 += 1
                return $0
            }
            if run < count { queue.add(step) }
            operation.finish()
        }
        queue.add(step)
        #expect(runs.snapshot == count)
        #expect(queue.runningCount == 0)
    }

    // MARK: Memory

    @Test func operationsDoNotKeepTheQueueAlive() {
        weak var weakQueue: TaskQueue?
        let finished: Operation
        let running: Operation
        let pending: Operation
        do {
            let queue = TaskQueue(maxConcurrentOperationCount: 2)
            weakQueue = queue
            finished = queue.add { _ in }
            finished.finish()
            running = queue.add { _ in }
            queue.isSuspended = true
            pending = queue.add { _ in Issue.record("Work of a deallocated queue ran") }
        }
        #expect(weakQueue == nil)
        #expect(pending.state == .cancelled)

        // Operations stay usable.
        running.finish()
        #expect(running.state == .finished)
        pending.priority = .high
        pending.cancel()
        #expect(finished.state == .finished)
    }

    /// The running operations a deallocated queue lets go of are released outside its lock, with the cancel
    /// handlers they hold. (If they weren't, this test would deadlock.)
    @Test func deallocatingTheQueueReleasesRunningOperationsOutsideTheLock() {
        final class Canary: Sendable {
            let operation: Operation
            let deinits: LockedValueBox<Int>
            init(_ operation: Operation, _ deinits: LockedValueBox<Int>) {
                self.operation = operation
                self.deinits = deinits
            }
            deinit {
                _ = operation.state  // Takes the lock the queue shared with its operations.
                deinits.withLock { $0 += 1 }
            }
        }
        let deinits = LockedValueBox(0)
        let kept: Operation
        do {
            let queue = TaskQueue(maxConcurrentOperationCount: 2)
            kept = queue.add { _ in }
            queue.add { operation in  // Held only by the queue once its work has run.
                let canary = Canary(kept, deinits)
                operation.onCancel { _ = canary }
            }
            #expect(deinits.snapshot == 0)
        }
        #expect(deinits.snapshot == 1)
        #expect(kept.state == .running)
        kept.finish()
        #expect(kept.state == .finished)
    }

    // MARK: Stress

    /// Threads add work with random priorities, change priorities, and suspend and resume the queue, while the
    /// work gives its slot back (finishing or cancelling itself) synchronously or later on another thread.
    @Test func stressNeverExceedsTheLimit() async {
        let limit = 3
        let threads = 8
        let perThread = 2_000
        let queue = TaskQueue(maxConcurrentOperationCount: limit)
        let operations = LockedValueBox<[Operation]>([])
        let concurrency = LockedValueBox((current: 0, max: 0))
        let runs = LockedValueBox([Int](repeating: 0, count: threads * perThread))
        let group = DispatchGroup()

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SplitMix64(seed: UInt64(thread))
            for index in 0..<perThread {
                let id = thread * perThread + index
                let mode = random.next(below: 4)
                let operation = queue.add(priority: random.priority()) { operation in
                    runs.withLock { $0[id] += 1 }
                    concurrency.withLock {
                        $0.current += 1
                        $0.max = max($0.max, $0.current)
                    }
                    let release: @Sendable () -> Void = {
                        concurrency.withLock { $0.current -= 1 }
                        if mode == 1 { operation.cancel() } else { operation.finish() }
                    }
                    if mode < 2 {
                        release()
                    } else {
                        group.enter()
                        DispatchQueue.global().async {
                            release()
                            group.leave()
                        }
                    }
                }
                let count = operations.withLock {
                    $0.append(operation)
                    return $0.count
                }
                let other = operations.withLock { $0[Int(random.next(below: UInt64(count)))] }
                other.priority = random.priority()
                if random.next(below: 50) == 0 {
                    queue.isSuspended = true
                    queue.isSuspended = false
                }
            }
        }
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }

        #expect(concurrency.snapshot.max <= limit)
        #expect(concurrency.snapshot.current == 0)
        #expect(runs.snapshot.allSatisfy { $0 == 1 })
        #expect(queue.runningCount == 0)
        #expect(queue.pendingCount == 0)
        #expect(queue.storedEntryCount == 0)
        #expect(operations.snapshot.allSatisfy { $0.state == .finished || $0.state == .cancelled })
    }

    /// As above, with threads that also cancel random operations, pending or running.
    @Test func stressWithCancellation() async {
        let limit = 4
        let threads = 8
        let perThread = 2_000
        let total = threads * perThread
        let queue = TaskQueue(maxConcurrentOperationCount: limit)
        let operations = LockedValueBox<[Operation?]>(Array(repeating: nil, count: total))
        let runs = LockedValueBox([Int](repeating: 0, count: total))
        let handlerCalls = LockedValueBox([Int](repeating: 0, count: total))
        let maxRunningCount = LockedValueBox(0)
        let group = DispatchGroup()

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SplitMix64(seed: UInt64(100 + thread))
            for index in 0..<perThread {
                let id = thread * perThread + index
                let isAsync = random.next(below: 2) == 0
                let operation = queue.add(priority: random.priority()) { operation in
                    runs.withLock { $0[id] += 1 }
                    let runningCount = queue.runningCount
                    maxRunningCount.withLock { $0 = max($0, runningCount) }
                    operation.onCancel { handlerCalls.withLock { $0[id] += 1 } }
                    if isAsync {
                        group.enter()
                        DispatchQueue.global().async {
                            operation.finish()
                            group.leave()
                        }
                    } else {
                        operation.finish()
                    }
                }
                operations.withLock { $0[id] = operation }
                let otherID = thread * perThread + Int(random.next(below: UInt64(index + 1)))
                let other = operations.withLock { $0[otherID] }
                switch random.next(below: 4) {
                case 0: other?.cancel()
                case 1: other?.priority = random.priority()
                default: break
                }
            }
        }
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }

        #expect(maxRunningCount.snapshot <= limit)
        #expect(queue.runningCount == 0)
        #expect(queue.pendingCount == 0)
        #expect(queue.storedEntryCount == 0)
        let states = operations.snapshot.map { $0?.state }
        let runCounts = runs.snapshot
        let handlerCounts = handlerCalls.snapshot
        for id in 0..<total {
            switch states[id] {
            case .finished:
                #expect(runCounts[id] == 1)
                #expect(handlerCounts[id] == 0)
            case .cancelled:
                #expect(runCounts[id] <= 1)
                #expect(handlerCounts[id] == runCounts[id])  // Cancelled while running: the handler ran once.
            default:
                Issue.record("Operation \(id) ended \(String(describing: states[id]))")
            }
        }
        #expect(states.contains(.cancelled))
        #expect(states.contains(.finished))
    }
}

/// A small seeded random number generator, so stress runs are reproducible per thread.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: UInt64) -> UInt64 { next() % bound }

    mutating func priority() -> ImageRequest.Priority {
        ImageRequest.Priority(rawValue: Int(next(below: 5)))!
    }
}
