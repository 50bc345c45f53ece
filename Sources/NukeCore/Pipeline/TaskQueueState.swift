/// The decisions of a ``TaskQueue``, as a value: which operation starts next, which thread drains, what a cancel
/// leaves to do. Every method is called under the queue's lock and returns what the caller must do once it has
/// unlocked — start work, call cancel handlers, release closures — so the decisions can be tested without threads.
///
/// The state: the limit, suspension, the drain flag, one first-in, first-out ``Bucket`` per priority (lazy
/// deletion: a cancelled or re-queued operation leaves a stale entry behind), the pending count and the running
/// operations.
///
/// Per-operation state (``Record``) is stored in the operation object itself rather than in a table keyed by an
/// operation id: the queue has to hold the operation anyway (its work receives it), so a field costs no lookup,
/// no hashing and no allocation, and the record outlives the queue with its operation. Only this type (and the
/// record's own methods) changes a record.
///
/// Draining is a trampoline: ``add(_:)``, ``drain()``, ``finish(_:)``, ``setLimit(_:)`` and ``setSuspended(_:)``
/// hand out the first operation to start only if no other thread is draining, and make the caller the drainer; it
/// runs the work, then asks ``nextStart()``, until that returns `nil`. Whether to start another operation or stop
/// draining is decided in one call, so no freed slot is missed.
///
/// Lifecycle: open, then ``close()`` when the queue is deallocated: pending operations are cancelled and running
/// ones are forgotten; from then on the operations only update their own records.
struct TaskQueueState<Element: TaskQueueStateElement> {
    typealias Work = Element.Work
    typealias CancelHandler = Element.CancelHandler
    typealias OperationState = TaskQueue.Operation.State

    /// The state of one operation, stored in the operation (``TaskQueueStateElement/record``).
    struct Record {
        fileprivate(set) var state = OperationState.pending
        fileprivate(set) var priority: ImageRequest.Priority
        /// Bumped when the operation is re-queued; bucket entries with an older generation are stale.
        fileprivate(set) var generation = 0
        /// The index in ``TaskQueueState/running`` while running.
        fileprivate var runningIndex = 0
        fileprivate var didStart = false
        fileprivate var work: Work?
        fileprivate var cancelHandlers: [CancelHandler] = []

        init(priority: ImageRequest.Priority, work: Work) {
            self.priority = priority
            self.work = work
        }

        /// Moves the record to cancelled and takes its closures out.
        fileprivate mutating func cancel(drainsAfter: Bool) -> Cancellation {
            let cancellation = Cancellation(
                work: work.take(), cancelHandlers: cancelHandlers, wasRunning: state == .running,
                drainsAfter: drainsAfter)
            cancelHandlers = []
            state = .cancelled
            return cancellation
        }
    }

    /// Work to start once the lock is unlocked: call `work` with `element` (then, as the drainer, ask
    /// ``nextStart()`` for more).
    struct Start {
        let element: Element
        let work: Work
    }

    /// What the caller does after ``finish(_:)``.
    struct Finish {
        /// The cancel handlers, which won't run now; release them outside the lock.
        var droppedHandlers: [CancelHandler]
        /// Work to start, the caller having become the drainer; `nil` if there is none or another thread drains.
        var next: Start?
    }

    /// What the caller does after the cancellation of an operation: release `work` (it never runs), call
    /// `cancelHandlers` if `wasRunning` (else just release them), then, if `drainsAfter`, call ``drain()`` (the
    /// freed slot may start pending work, after the handlers ran).
    struct Cancellation {
        var work: Work?
        var cancelHandlers: [CancelHandler]
        var wasRunning: Bool
        var drainsAfter: Bool
    }

    private(set) var limit: Int
    private(set) var isSuspended = false
    /// `true` while a thread runs work handed out by this state, until ``nextStart()`` returns `nil`.
    private(set) var isDraining = false
    /// `true` once the queue is gone (``close()``).
    private(set) var isClosed = false
    /// The number of pending operations (live bucket entries).
    private(set) var pendingCount = 0
    /// The lines, by `ImageRequest.Priority.rawValue`.
    private var buckets = [Bucket](repeating: Bucket(), count: ImageRequest.Priority.allCases.count)
    /// The running operations, in no particular order (each knows its index: removal is a swap with the last).
    private var running: [Element] = []

    /// Creates a state for a queue that runs at most `limit` operations at a time (at least 1).
    init(limit: Int) {
        precondition(limit >= 1, "maxConcurrentOperationCount must be at least 1")
        self.limit = limit
    }

    /// The number of running operations.
    var runningCount: Int { running.count }

    /// The number of entries in the buckets, stale ones included.
    var storedEntryCount: Int { buckets.reduce(0) { $0 + $1.count } }

    private var hasFreeSlot: Bool { !isSuspended && !isClosed && running.count < limit }

    // MARK: Queue

    /// Queues the new, pending `element` at the end of its priority's line.
    mutating func add(_ element: Element) -> Start? {
        precondition(!isClosed && element.record.state == .pending, "Only a queue's new operations can be added")
        if pendingCount == 0, !isDraining, hasFreeSlot {
            // Nothing waits ahead of it: start it at once, without a round trip through its bucket.
            isDraining = true
            return start(element)
        }
        buckets[element.record.priority.rawValue].append(Entry(element: element, generation: element.record.generation))
        pendingCount += 1
        return drain()
    }

    /// Hands out the next pending operation to start, making the caller the drainer, unless another thread drains
    /// or nothing can start.
    mutating func drain() -> Start? {
        guard !isDraining, pendingCount > 0, hasFreeSlot else { return nil }
        isDraining = true
        return startNext()
    }

    /// For the drainer, once the work it started returned: the next operation to start, or `nil`, which ends the
    /// drain (the next thread that makes work startable drains).
    mutating func nextStart() -> Start? {
        precondition(isDraining, "nextStart is for the draining thread")
        if pendingCount > 0, hasFreeSlot, let start = startNext() { return start }
        isDraining = false
        return nil
    }

    /// Changes the limit (at least 1); a higher one may start pending work.
    mutating func setLimit(_ limit: Int) -> Start? {
        precondition(limit >= 1, "maxConcurrentOperationCount must be at least 1")
        self.limit = limit
        return drain()
    }

    /// Suspends or resumes the queue; resuming may start pending work.
    mutating func setSuspended(_ isSuspended: Bool) -> Start? {
        self.isSuspended = isSuspended
        return isSuspended ? nil : drain()
    }

    /// Cancels every pending and running operation. For each cancellation, in order (pending ones first), the
    /// caller releases the closures and calls the handlers of the running ones; then it calls ``drain()``.
    mutating func cancelAll() -> [Cancellation] {
        var cancellations = cancelPending()
        for element in running { cancellations.append(element.record.cancel(drainsAfter: false)) }
        running.removeAll()
        return cancellations
    }

    /// The queue is gone: cancels the pending operations and forgets the running ones, which from now on only
    /// update their own records. The caller releases both outside the lock (the closures of the cancelled ones;
    /// the running ones, whose cancel handlers go with them if nothing else holds them).
    mutating func close() -> (cancellations: [Cancellation], forgotten: [Element]) {
        let cancellations = cancelPending()
        let forgotten = running
        running = []
        isClosed = true
        return (cancellations, forgotten)
    }

    // MARK: Operations

    /// Marks the running `element` as finished and frees its slot, which may make the caller the drainer. `nil`
    /// unless `element` is running.
    mutating func finish(_ element: Element) -> Finish? {
        guard element.record.state == .running else { return nil }
        element.record.state = .finished
        let handlers = element.record.cancelHandlers
        element.record.cancelHandlers = []
        removeFromRunning(element)
        return Finish(droppedHandlers: handlers, next: drain())
    }

    /// Cancels the pending or running `element`; `nil` once it has finished or been cancelled.
    mutating func cancel(_ element: Element) -> Cancellation? {
        switch element.record.state {
        case .pending:
            let cancellation = element.record.cancel(drainsAfter: false)
            if !isClosed {  // Now that its entry is stale (the record says cancelled), so compaction drops it.
                pendingCount -= 1
                buckets[element.record.priority.rawValue].markStale()
            }
            return cancellation
        case .running:
            removeFromRunning(element)
            return element.record.cancel(drainsAfter: !isClosed)
        case .finished, .cancelled:
            return nil
        }
    }

    /// Changes the priority of `element`; a pending one moves to the end of its new line. Nothing to do after.
    mutating func setPriority(_ priority: ImageRequest.Priority, of element: Element) {
        let oldPriority = element.record.priority
        guard priority != oldPriority else { return }
        element.record.priority = priority
        guard element.record.state == .pending, !isClosed else { return }
        element.record.generation &+= 1
        buckets[priority.rawValue].append(Entry(element: element, generation: element.record.generation))
        buckets[oldPriority.rawValue].markStale()
    }

    /// Registers a cancel handler of `element`. Returns `true` if the caller must call it at once (the operation
    /// was cancelled while running); else it's stored (pending or running) or never runs (finished, or cancelled
    /// before it started).
    mutating func addCancelHandler(_ handler: CancelHandler, to element: Element) -> Bool {
        switch element.record.state {
        case .pending, .running:
            element.record.cancelHandlers.append(handler)
            return false
        case .cancelled:
            return element.record.didStart
        case .finished:
            return false
        }
    }

    // MARK: Internals

    /// Pops the first live entry of the highest non-empty priority and starts its operation.
    private mutating func startNext() -> Start? {
        for index in buckets.indices.reversed() {
            guard let element = buckets[index].popLive() else { continue }
            pendingCount -= 1
            return start(element)
        }
        assertionFailure("pendingCount is out of sync with the buckets")
        return nil
    }

    private mutating func start(_ element: Element) -> Start {
        guard let work = element.record.work.take() else { preconditionFailure("The operation has already started") }
        element.record.state = .running
        element.record.didStart = true
        element.record.runningIndex = running.count
        running.append(element)
        return Start(element: element, work: work)
    }

    /// Removes the running `element` from `running` (unless closed: then it's no longer there).
    private mutating func removeFromRunning(_ element: Element) {
        guard !isClosed else { return }
        let index = element.record.runningIndex
        let last = running.removeLast()
        if index < running.count {
            running[index] = last
            last.record.runningIndex = index
        }
    }

    /// Cancels every pending operation and empties the buckets.
    private mutating func cancelPending() -> [Cancellation] {
        var cancellations: [Cancellation] = []
        cancellations.reserveCapacity(pendingCount + running.count)
        for index in buckets.indices {
            buckets[index].forEachLive { element in
                cancellations.append(element.record.cancel(drainsAfter: false))
            }
            buckets[index] = Bucket()
        }
        pendingCount = 0
        return cancellations
    }
}

/// An object whose queueing state a ``TaskQueueState`` keeps: ``TaskQueue/Operation``, or a test's stand-in. The
/// object stores the ``TaskQueueState/Record``; only the state machine changes it, under the queue's lock.
protocol TaskQueueStateElement: AnyObject {
    /// What the queue hands out to start the operation.
    associatedtype Work
    /// What the queue hands out to call when a running operation is cancelled.
    associatedtype CancelHandler
    var record: TaskQueueState<Self>.Record { get set }
}
