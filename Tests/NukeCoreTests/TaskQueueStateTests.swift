import NukeTestKit
import Testing

@testable import NukeCore

/// The task queue's decisions as values, without threads: a test plays the draining thread by running every
/// ``TaskQueueState/Start`` it gets and asking for the next one.
@Suite struct TaskQueueStateTests {
    typealias State = TaskQueueState<Item>

    /// An operation stand-in whose work and cancel handlers are names.
    final class Item: TaskQueueStateElement {
        typealias Work = String
        typealias CancelHandler = String

        let name: String
        var record: TaskQueueState<Item>.Record

        init(_ name: String, _ priority: ImageRequest.Priority = .normal) {
            self.name = name
            record = TaskQueueState.Record(priority: priority, work: name)
        }
    }

    /// Plays the drainer: "runs" `first` and then each operation ``TaskQueueState/nextStart()`` hands out, until
    /// it says stop. Returns the names of the started work, in order.
    static func drain(_ state: inout State, from first: State.Start?) -> [String] {
        guard var start = first else { return [] }
        var started: [String] = []
        while true {
            #expect(start.work == start.element.name)
            #expect(start.element.record.state == .running)
            started.append(start.work)
            guard let next = state.nextStart() else { break }
            start = next
        }
        #expect(!state.isDraining)
        return started
    }

    /// Adds `item` and drains whatever that starts.
    static func add(_ item: Item, to state: inout State) -> [String] {
        let start = state.add(item)
        return drain(&state, from: start)
    }

    // MARK: Order

    @Test func startsByPriorityThenFirstInFirstOut() {
        // Given a suspended queue with one slot and work of mixed priorities
        var state = State(limit: 1)
        _ = state.setSuspended(true)
        let items = [
            Item("a", .low), Item("b", .high), Item("c", .low), Item("d", .veryHigh), Item("e", .high),
            Item("f", .veryLow),
        ]
        for item in items { #expect(state.add(item) == nil) }
        #expect(state.pendingCount == 6)
        #expect(state.storedEntryCount == 6)

        // When it resumes, and each started operation finishes in turn
        var started = Self.drain(&state, from: state.setSuspended(false))
        while let running = items.first(where: { $0.record.state == .running }) {
            let finish = state.finish(running)
            #expect(finish?.droppedHandlers == [])
            started += Self.drain(&state, from: finish?.next)
        }

        // Then the highest priority goes first, and equal priorities keep their order
        #expect(started == ["d", "b", "e", "a", "c", "f"])
        #expect(items.allSatisfy { $0.record.state == .finished })
        #expect(state.pendingCount == 0)
        #expect(state.runningCount == 0)
        #expect(state.storedEntryCount == 0)
    }

    @Test func workAddedToAnIdleQueueStartsWithoutBeingStored() {
        var state = State(limit: 2)
        let item = Item("a")
        let start = state.add(item)
        #expect(start?.work == "a")
        #expect(start?.element === item)
        #expect(state.isDraining)  // The caller is the drainer now.
        #expect(state.storedEntryCount == 0)
        #expect(state.nextStart() == nil)
        #expect(!state.isDraining)
        #expect(state.runningCount == 1)
    }

    // MARK: Limit and suspension

    @Test func respectsTheLimitAndSuspension() {
        // Given a queue with two slots, both taken
        var state = State(limit: 2)
        let a = Item("a")
        let b = Item("b")
        let c = Item("c")
        let d = Item("d")
        #expect(Self.add(a, to: &state) == ["a"])
        #expect(Self.add(b, to: &state) == ["b"])

        // Then more work waits
        #expect(Self.add(c, to: &state) == [])
        #expect(c.record.state == .pending)
        #expect(state.runningCount == 2)
        #expect(state.pendingCount == 1)

        // When the limit rises, the waiting work starts
        #expect(Self.drain(&state, from: state.setLimit(3)) == ["c"])
        #expect(state.runningCount == 3)

        // When the queue is suspended, a freed slot starts nothing, and new work waits
        #expect(state.setSuspended(true) == nil)
        #expect(state.finish(a)?.next == nil)
        #expect(Self.add(d, to: &state) == [])
        #expect(state.pendingCount == 1)

        // When the limit drops below the running count, resuming starts nothing either
        #expect(state.setLimit(1) == nil)
        #expect(state.setSuspended(false) == nil)
        #expect(state.finish(b)?.next == nil)  // Still 1 running (c), the limit.
        #expect(d.record.state == .pending)

        // Until the running count drops below the limit
        #expect(Self.drain(&state, from: state.finish(c)?.next) == ["d"])
        #expect(state.limit == 1)
        #expect(state.runningCount == 1)
        #expect(state.pendingCount == 0)
    }

    // MARK: Draining

    @Test func onlyOneDrainerAtATime() {
        // Given a thread that got work to start: it is the drainer until `nextStart()` returns nil
        var state = State(limit: 3)
        let a = Item("a")
        let b = Item("b")
        let c = Item("c")
        let first = state.add(a)
        #expect(first?.work == "a")
        #expect(state.isDraining)

        // When other threads add work or free slots meanwhile, they get nothing to do
        #expect(state.add(b) == nil)
        #expect(state.add(c) == nil)
        #expect(state.drain() == nil)
        #expect(state.setLimit(4) == nil)
        #expect(state.setSuspended(false) == nil)
        #expect(b.record.state == .pending)

        // Then the drainer starts their work, in order, and stops once there's nothing left
        #expect(state.nextStart()?.work == "b")
        #expect(state.nextStart()?.work == "c")
        #expect(state.nextStart() == nil)
        #expect(!state.isDraining)

        // And the next thread that makes work startable becomes the drainer
        let d = Item("d")
        #expect(state.add(d)?.work == "d")
        #expect(state.isDraining)
    }

    @Test func aFinishWhileDrainingLeavesTheStartToTheDrainer() {
        // Given one slot, taken by `a`, whose work is running on the draining thread; `b` waits
        var state = State(limit: 1)
        let a = Item("a")
        let b = Item("b")
        _ = state.add(a)
        #expect(state.add(b) == nil)

        // When `a` finishes synchronously, inside its work
        let finish = state.finish(a)

        // Then the finishing call starts nothing; the drainer, once `a`'s work returns, starts `b`
        #expect(finish != nil)
        #expect(finish?.next == nil)
        #expect(state.nextStart()?.work == "b")
        #expect(state.nextStart() == nil)
    }

    // MARK: Cancellation

    @Test func cancellingPendingWorkHandsBackItsClosuresWithoutCallingAnything() {
        // Given a pending operation with a cancel handler
        var state = State(limit: 1)
        let blocker = Item("blocker")
        let item = Item("x")
        _ = Self.add(blocker, to: &state)
        _ = Self.add(item, to: &state)
        #expect(state.addCancelHandler("h", to: item) == false)

        // When it's cancelled
        let cancellation = state.cancel(item)

        // Then its work and handler come back to be released, not called, and nothing drains
        #expect(cancellation?.work == "x")
        #expect(cancellation?.cancelHandlers == ["h"])
        #expect(cancellation?.wasRunning == false)
        #expect(cancellation?.drainsAfter == false)
        #expect(item.record.state == .cancelled)
        #expect(state.pendingCount == 0)
        #expect(state.storedEntryCount == 0)
        #expect(state.runningCount == 1)

        // And later calls do nothing; a late handler never runs
        #expect(state.cancel(item) == nil)
        #expect(state.finish(item) == nil)
        #expect(state.addCancelHandler("late", to: item) == false)
        #expect(state.finish(blocker)?.next == nil)  // The cancelled work never starts.
    }

    @Test func cancellingRunningWorkCallsItsHandlersThenDrains() {
        // Given a running operation with handlers, and work waiting for its slot
        var state = State(limit: 1)
        let item = Item("x")
        let next = Item("next")
        _ = Self.add(item, to: &state)
        _ = Self.add(next, to: &state)
        #expect(state.addCancelHandler("h1", to: item) == false)
        #expect(state.addCancelHandler("h2", to: item) == false)

        // When it's cancelled
        let cancellation = state.cancel(item)

        // Then the handlers come back to be called, the slot is free, and the caller is told to drain after them
        #expect(cancellation?.work == nil)
        #expect(cancellation?.cancelHandlers == ["h1", "h2"])
        #expect(cancellation?.wasRunning == true)
        #expect(cancellation?.drainsAfter == true)
        #expect(state.runningCount == 0)
        #expect(next.record.state == .pending)  // Nothing started before the handlers ran.
        #expect(Self.drain(&state, from: state.drain()) == ["next"])

        // And a late finish changes nothing; a late handler runs at once
        #expect(state.finish(item) == nil)
        #expect(state.cancel(item) == nil)
        #expect(state.runningCount == 1)
        #expect(state.addCancelHandler("late", to: item) == true)
    }

    @Test func finishingDropsTheHandlers() {
        var state = State(limit: 1)
        let item = Item("x")
        _ = Self.add(item, to: &state)
        _ = state.addCancelHandler("h", to: item)
        #expect(state.finish(item)?.droppedHandlers == ["h"])
        #expect(item.record.state == .finished)
        #expect(state.finish(item) == nil)
        #expect(state.cancel(item) == nil)
        #expect(state.addCancelHandler("late", to: item) == false)
    }

    @Test func cancelAllCancelsPendingThenRunning() {
        // Given two running and two pending operations
        var state = State(limit: 2)
        let items = (0..<4).map { Item("\($0)") }
        for item in items { _ = Self.add(item, to: &state) }
        _ = state.addCancelHandler("h0", to: items[0])

        // When all are cancelled
        let cancellations = state.cancelAll()

        // Then the pending ones come back first, with their work, then the running ones, with their handlers
        #expect(cancellations.map(\.work) == ["2", "3", nil, nil])
        #expect(cancellations.map(\.wasRunning) == [false, false, true, true])
        #expect(cancellations.flatMap(\.cancelHandlers) == ["h0"])
        #expect(items.allSatisfy { $0.record.state == .cancelled })
        #expect(state.pendingCount == 0)
        #expect(state.runningCount == 0)
        #expect(state.storedEntryCount == 0)

        // And the queue stays usable
        #expect(state.drain() == nil)
        #expect(Self.add(Item("next"), to: &state) == ["next"])
    }

    // MARK: Priority

    @Test func changingThePriorityOfPendingWorkRequeuesItAtTheEnd() {
        // Given pending work: a, b, c at .normal, d at .high, e at .normal
        var state = State(limit: 1)
        _ = state.setSuspended(true)
        let items = ["a", "b", "c", "d", "e"].map { Item($0, $0 == "d" ? .high : .normal) }
        for item in items { _ = state.add(item) }

        // When c moves to .high, a to .low, and b is set to its current priority
        state.setPriority(.high, of: items[2])
        state.setPriority(.low, of: items[0])
        state.setPriority(.normal, of: items[1])

        // Then c queues behind d, b keeps its place, and the old entries went stale
        #expect(items[2].record.priority == .high)
        #expect(items[2].record.generation == 1)
        #expect(items[1].record.generation == 0)
        #expect(state.pendingCount == 5)
        #expect(state.storedEntryCount == 7)
        var started = Self.drain(&state, from: state.setSuspended(false))
        while let running = items.first(where: { $0.record.state == .running }) {
            started += Self.drain(&state, from: state.finish(running)?.next)
        }
        #expect(started == ["d", "c", "b", "e", "a"])
        #expect(state.storedEntryCount == 0)
    }

    @Test func changingThePriorityOfStartedWorkOnlyStoresIt() {
        var state = State(limit: 1)
        let item = Item("x", .low)
        _ = Self.add(item, to: &state)
        state.setPriority(.veryHigh, of: item)
        #expect(item.record.priority == .veryHigh)
        #expect(item.record.generation == 0)
        #expect(state.storedEntryCount == 0)
        #expect(state.pendingCount == 0)
    }

    // MARK: Memory

    @Test func compactionKeepsStoredEntriesBoundedAfterManyCancels() {
        // Given a suspended queue with one live operation at the front of its line
        var state = State(limit: 1)
        _ = state.setSuspended(true)
        let survivor = Item("survivor", .low)
        _ = state.add(survivor)
        var peak = 0

        // When many operations are added behind it and cancelled
        for index in 0..<10_000 {
            let item = Item("\(index)", .low)
            _ = state.add(item)
            let cancellation = state.cancel(item)
            #expect(cancellation?.work == "\(index)")
            peak = max(peak, state.storedEntryCount)
        }

        // Then the stale entries were compacted away along the way
        #expect(state.pendingCount == 1)
        #expect(peak < 200)
        #expect(state.storedEntryCount < 200)
        #expect(Self.drain(&state, from: state.setSuspended(false)) == ["survivor"])
        #expect(state.storedEntryCount == 0)
    }

    @Test func compactionKeepsStoredEntriesBoundedAfterManyPriorityChanges() {
        var state = State(limit: 1)
        _ = state.setSuspended(true)
        let items = (0..<10).map { Item("\($0)") }
        for item in items { _ = state.add(item) }
        var peak = 0
        for iteration in 0..<20_000 {
            state.setPriority(iteration.isMultiple(of: 2) ? .high : .low, of: items[iteration % 3])
            peak = max(peak, state.storedEntryCount)
        }
        #expect(state.pendingCount == 10)
        #expect(peak < 500)
        // Each of the first three has the priority of the last iteration that touched it.
        let last = (0..<3).map { index in (0..<20_000).last { $0 % 3 == index }! }
        #expect(items.prefix(3).map(\.record.priority) == last.map { $0.isMultiple(of: 2) ? .high : .low })
        #expect(items.dropFirst(3).allSatisfy { $0.record.priority == .normal })
    }

    @Test func closingCancelsPendingWorkAndForgetsRunningWork() {
        // Given a running and a pending operation
        var state = State(limit: 1)
        let running = Item("running")
        let pending = Item("pending")
        _ = Self.add(running, to: &state)
        _ = Self.add(pending, to: &state)
        _ = state.addCancelHandler("h", to: running)

        // When the queue goes away
        let (cancellations, forgotten) = state.close()

        // Then the pending work comes back to be released; the running operation, to be let go, is left alone
        #expect(cancellations.map(\.work) == ["pending"])
        #expect(cancellations.map(\.wasRunning) == [false])
        #expect(forgotten.map(\.name) == ["running"])
        #expect(pending.record.state == .cancelled)
        #expect(running.record.state == .running)
        #expect(state.runningCount == 0)
        #expect(state.storedEntryCount == 0)

        // And the running operation only updates itself: nothing drains after it
        state.setPriority(.high, of: running)
        #expect(running.record.priority == .high)
        #expect(state.storedEntryCount == 0)
        let cancellation = state.cancel(running)
        #expect(cancellation?.cancelHandlers == ["h"])
        #expect(cancellation?.wasRunning == true)
        #expect(cancellation?.drainsAfter == false)
        #expect(state.drain() == nil)
    }
}

/// Random sequences of calls, compared step by step against a plain model of the queue's contract.
@Suite struct TaskQueueStateModelTests {
    typealias Item = TaskQueueStateTests.Item
    typealias State = TaskQueueState<Item>

    /// The contract, written the simple way: a list of pending operations searched on every start.
    struct Model {
        var limit: Int
        var isSuspended = false
        /// Pending operations with the sequence number of their last (re-)queueing.
        var pending: [(id: Int, sequence: Int)] = []
        var running: Set<Int> = []
        var states: [TaskQueue.Operation.State] = []
        var priorities: [ImageRequest.Priority] = []
        var didStart: [Bool] = []
        var handlers: [[String]] = []
        var sequence = 0

        mutating func add(priority: ImageRequest.Priority) -> Int {
            let id = states.count
            states.append(.pending)
            priorities.append(priority)
            didStart.append(false)
            handlers.append([])
            enqueue(id)
            return id
        }

        mutating func enqueue(_ id: Int) {
            pending.append((id, sequence))
            sequence += 1
        }

        /// Starts pending work while slots are free: the highest priority, then the earliest queued.
        mutating func startAll() -> [String] {
            var started: [String] = []
            while !isSuspended, running.count < limit, !pending.isEmpty {
                let index = pending.indices.min { lhs, rhs in
                    let (l, r) = (pending[lhs], pending[rhs])
                    return priorities[l.id] != priorities[r.id]
                        ? priorities[l.id] > priorities[r.id] : l.sequence < r.sequence
                }!
                let id = pending.remove(at: index).id
                running.insert(id)
                states[id] = .running
                didStart[id] = true
                started.append("\(id)")
            }
            return started
        }

        /// Returns the handlers to call (running) or `nil` (nothing to cancel), and whether it was running.
        mutating func cancel(_ id: Int) -> (handlers: [String], wasRunning: Bool)? {
            switch states[id] {
            case .pending:
                pending.removeAll { $0.id == id }
            case .running:
                running.remove(id)
            case .finished, .cancelled:
                return nil
            }
            let wasRunning = states[id] == .running
            states[id] = .cancelled
            defer { handlers[id] = [] }
            return (handlers[id], wasRunning)
        }
    }

    /// Checked with closures rather than key paths (15 s under ThreadSanitizer with them, 3 s without), and async,
    /// yielding every 50 steps: eight seeds of 2,000 checked steps would otherwise hold both threads of a 2-core
    /// machine's cooperative pool and starve the suites beside them that keep time (the cache-tests suite's 3 s
    /// pauses must not outlast a response's 5 s).
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomSequencesMatchTheModel(seed: UInt64) async {
        var random = SeededRandomNumberGenerator(seed: seed)
        let initialLimit = Int.random(in: 1...4, using: &random)
        var state = State(limit: initialLimit)
        var model = Model(limit: initialLimit)
        var items: [Item] = []
        var peakPending = 0
        var startedCount = 0
        func randomPriority() -> ImageRequest.Priority {
            ImageRequest.Priority.allCases.randomElement(using: &random)!
        }

        for step in 0..<2_000 {
            if step % 50 == 0 { await Task.yield() }
            var started: [String] = []
            var expectedStarted: [String] = []
            let pick = items.isEmpty ? 0 : Int.random(in: 0..<items.count, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30 where model.pending.count < 60:  // Add.
                let priority = randomPriority()
                let id = model.add(priority: priority)
                let item = Item("\(id)", priority)
                items.append(item)
                started = TaskQueueStateTests.add(item, to: &state)
                expectedStarted = model.startAll()
            case 0..<45 where !items.isEmpty:  // Finish, mostly running work.
                let pick = model.running.randomElement(using: &random) ?? pick
                let finish = state.finish(items[pick])
                #expect((finish != nil) == (model.states[pick] == .running))
                if finish != nil {
                    #expect(finish?.droppedHandlers == model.handlers[pick])
                    model.handlers[pick] = []
                    model.running.remove(pick)
                    model.states[pick] = .finished
                }
                started = TaskQueueStateTests.drain(&state, from: finish?.next)
                expectedStarted = model.startAll()
            case 45..<60 where !items.isEmpty:  // Cancel, mostly pending or running work.
                let live = Bool.random(using: &random) ? model.running.randomElement(using: &random) : nil
                let pick = live ?? model.pending.randomElement(using: &random)?.id ?? pick
                let cancellation = state.cancel(items[pick])
                let expected = model.cancel(pick)
                #expect(cancellation?.wasRunning == expected?.wasRunning)
                #expect(cancellation?.drainsAfter == expected?.wasRunning)
                if cancellation?.wasRunning == true { #expect(cancellation?.cancelHandlers == expected?.handlers) }
                #expect(cancellation?.work == (cancellation?.wasRunning == false ? "\(pick)" : nil))
                if cancellation?.drainsAfter == true {
                    started = TaskQueueStateTests.drain(&state, from: state.drain())
                }
                expectedStarted = model.startAll()
            case 60..<75 where !items.isEmpty:  // Change a priority.
                let priority = randomPriority()
                state.setPriority(priority, of: items[pick])
                if priority != model.priorities[pick] {
                    model.priorities[pick] = priority
                    if model.states[pick] == .pending {
                        model.pending.removeAll { $0.id == pick }
                        model.enqueue(pick)
                    }
                }
            case 75..<85 where !items.isEmpty:  // Register a cancel handler.
                let handler = "h\(step)"
                let runsNow = state.addCancelHandler(handler, to: items[pick])
                switch model.states[pick] {
                case .pending, .running:
                    model.handlers[pick].append(handler)
                    #expect(!runsNow)
                case .cancelled:
                    #expect(runsNow == model.didStart[pick])
                case .finished:
                    #expect(!runsNow)
                }
            case 85..<92:  // Suspend or resume.
                model.isSuspended.toggle()
                started = TaskQueueStateTests.drain(&state, from: state.setSuspended(model.isSuspended))
                expectedStarted = model.startAll()
            case 92..<99:  // Change the limit.
                model.limit = Int.random(in: 1...4, using: &random)
                started = TaskQueueStateTests.drain(&state, from: state.setLimit(model.limit))
                expectedStarted = model.startAll()
            default:  // Cancel everything.
                let cancellations = state.cancelAll()
                let pendingIDs = Set(model.pending.map(\.id))
                let runningIDs = model.running
                #expect(cancellations.count == pendingIDs.count + runningIDs.count)
                #expect(cancellations.filter(\.wasRunning).count == runningIDs.count)
                #expect(Set(cancellations.compactMap(\.work)) == Set(pendingIDs.map { "\($0)" }))
                #expect(cancellations.allSatisfy { $0.drainsAfter == false })
                for id in pendingIDs.union(runningIDs) { _ = model.cancel(id) }
                started = TaskQueueStateTests.drain(&state, from: state.drain())
                expectedStarted = model.startAll()
            }

            // Then the state machine agrees with the model on what started and on every operation
            #expect(started == expectedStarted, "step \(step)")
            #expect(state.pendingCount == model.pending.count)
            #expect(state.runningCount == model.running.count)
            if !started.isEmpty { #expect(state.runningCount <= state.limit) }
            #expect(!state.isDraining)
            #expect(items.map { $0.record.state } == model.states)
            #expect(items.map { $0.record.priority } == model.priorities)
            // And its memory follows the live work: every pending operation is stored, an empty line holds
            // nothing, and stale entries never outnumber what compaction allows.
            peakPending = max(peakPending, state.pendingCount)
            #expect(state.storedEntryCount >= state.pendingCount)
            if state.pendingCount == 0 { #expect(state.storedEntryCount == 0) }
            #expect(state.storedEntryCount <= state.pendingCount + 5 * max(63, peakPending))
            if started != expectedStarted { break }  // One report, not thousands.
            startedCount += started.count
        }
        // And the run covered the interesting cases
        #expect(items.count > 100)
        #expect(startedCount > 100)
        #expect(model.states.contains(.finished))
        #expect(zip(model.states, model.didStart).contains { $0 == .cancelled && $1 })
        #expect(zip(model.states, model.didStart).contains { $0 == .cancelled && !$1 })
    }
}
