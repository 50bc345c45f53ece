public import Foundation

/// A queue of work with a concurrency limit and priorities, used for the pipeline's stages (data loading,
/// decoding, processing, encoding).
///
/// Pending work starts in priority order, first in, first out within a priority, whenever a slot is free and
/// the queue isn't suspended. Work holds its slot until it calls ``Operation/finish()`` or its operation is
/// cancelled.
///
/// All members are thread-safe. Work is invoked outside the queue's lock, synchronously, on the thread that
/// made it startable: the one that called ``add(priority:_:)``, ``Operation/finish()``, ``Operation/cancel()``
/// or ``cancelAll()``, resumed the queue, or raised its limit. Work should therefore return quickly and do the
/// real work asynchronously. Only one thread at a time starts work (if another thread is already starting
/// work, that thread starts the new work too, after its current work returns), so work that finishes or adds
/// work synchronously doesn't recurse.
///
/// The queue doesn't retain finished or cancelled operations, and operations keep only a weak reference to
/// their queue. When the queue is deallocated, its pending operations are cancelled.
public final class TaskQueue: @unchecked Sendable {
    // @unchecked: every `var` below, and every `var` of this queue's operations, is only read or written while
    // `lock` is held.
    fileprivate let lock = Lock.make()
    private var limit: Int
    private var suspended = false
    private var isDraining = false
    private var buckets = [Bucket](repeating: Bucket(), count: ImageRequest.Priority.allCases.count)
    private var pending = 0
    private var running: [ObjectIdentifier: Operation] = [:]

    /// Creates a queue that runs at most `maxConcurrentOperationCount` operations at a time (at least 1).
    public init(maxConcurrentOperationCount: Int = ProcessInfo.processInfo.processorCount) {
        precondition(maxConcurrentOperationCount >= 1, "maxConcurrentOperationCount must be at least 1")
        limit = maxConcurrentOperationCount
    }

    deinit {
        // Pending operations can never start now; cancel them so their state says so.
        let leftovers = lock.withLock {
            buckets.flatMap(\.liveEntries).map { $0.operation.markCancelledLocked() }
        }
        _ = leftovers  // Released here, outside the lock.
    }

    /// The maximum number of operations that run at a time (at least 1).
    ///
    /// Raising it starts pending work at once. Lowering it doesn't stop running work; nothing new starts until
    /// the running count drops below the new limit.
    public var maxConcurrentOperationCount: Int {
        get { lock.withLock { limit } }
        set {
            precondition(newValue >= 1, "maxConcurrentOperationCount must be at least 1")
            lock.withLock { limit = newValue }
            drain()
        }
    }

    /// While `true`, no new work starts; running work continues. Setting it to `false` starts pending work in
    /// priority order. `false` by default.
    public var isSuspended: Bool {
        get { lock.withLock { suspended } }
        set {
            lock.withLock { suspended = newValue }
            if !newValue { drain() }
        }
    }

    /// The number of operations that are queued and haven't started (cancelled operations aren't counted).
    public var pendingCount: Int { lock.withLock { pending } }

    /// The number of operations that started and haven't finished or been cancelled.
    public var runningCount: Int { lock.withLock { running.count } }

    /// Queues `work` with the given priority and returns its operation.
    ///
    /// If a slot is free and the queue isn't suspended, `work` starts at once: on this thread before this method
    /// returns, unless another thread is starting work, which then starts it. `work` runs at most once, and never
    /// if the operation is cancelled first. It receives the operation, should return quickly, and must call
    /// ``Operation/finish()`` on the operation when done, from any thread.
    @discardableResult
    public func add(
        priority: ImageRequest.Priority = .normal,
        _ work: @escaping @Sendable (TaskQueue.Operation) -> Void
    ) -> TaskQueue.Operation {
        let operation = Operation(queue: self, priority: priority, work: work)
        lock.withLock {
            buckets[priority.rawValue].append(Entry(operation: operation, generation: 0))
            pending += 1
        }
        drain()
        return operation
    }

    /// Cancels every pending and running operation, as ``Operation/cancel()`` does.
    ///
    /// Pending work never runs. The cancel handlers of running operations run on the calling thread.
    public func cancelAll() {
        let leftovers = lock.withLock {
            let operations = buckets.flatMap(\.liveEntries).map(\.operation) + running.values
            buckets = buckets.map { _ in Bucket() }
            pending = 0
            running = [:]
            return operations.map { $0.markCancelledLocked() }
        }
        for leftover in leftovers { leftover.callHandlers() }
        drain()
    }

    // MARK: Internals (the `Locked` methods must be called with `lock` held)

    /// The number of entries the queue stores, stale ones included. For tests.
    var storedEntryCount: Int { lock.withLock { buckets.reduce(0) { $0 + $1.count } } }

    /// Starts pending operations while slots are free.
    ///
    /// A trampoline: only one thread drains at a time. Threads that free a slot or add work while another one
    /// drains return at once and leave the work to it. Whether to start another operation or else stop draining
    /// is decided under a single lock acquisition, so no freed slot is missed.
    fileprivate func drain() {
        lock.lock()
        guard !isDraining else { return lock.unlock() }
        isDraining = true
        while true {
            do {
                guard let next = startNextLocked() else { break }
                lock.unlock()
                next.work(next.operation)
            }  // `next` (and the work closure) is released here, before locking: its deinits may use the queue.
            lock.lock()
        }
        isDraining = false
        lock.unlock()
    }

    private func startNextLocked() -> (operation: Operation, work: @Sendable (Operation) -> Void)? {
        guard !suspended, running.count < limit, pending > 0 else { return nil }
        for index in buckets.indices.reversed() {
            guard let operation = buckets[index].popLive() else { continue }
            pending -= 1
            running[ObjectIdentifier(operation)] = operation
            return (operation, operation.startLocked())
        }
        assertionFailure("pendingCount is out of sync with the buckets")
        return nil
    }

    /// Called after a pending `operation` was cancelled.
    fileprivate func didCancelPendingLocked(_ operation: Operation) {
        pending -= 1
        buckets[operation.priorityValue.rawValue].markStale()
    }

    /// Called after a running `operation` finished or was cancelled.
    fileprivate func didStopRunningLocked(_ operation: Operation) {
        running[ObjectIdentifier(operation)] = nil
    }

    /// Called after the priority of a pending `operation` changed: moves it to the end of its new line.
    fileprivate func requeueLocked(_ operation: Operation, from oldPriority: ImageRequest.Priority) {
        operation.generation &+= 1
        let entry = Entry(operation: operation, generation: operation.generation)
        buckets[operation.priorityValue.rawValue].append(entry)
        buckets[oldPriority.rawValue].markStale()
    }
}

extension TaskQueue {
    /// A unit of work in a ``TaskQueue``.
    ///
    /// All members are thread-safe. The operation keeps only a weak reference to its queue; once the queue is
    /// gone, `finish()`, `cancel()`, and `priority` only update the operation itself.
    public final class Operation: @unchecked Sendable {
        // @unchecked: every `var` below is only read or written while `lock`, the queue's lock, is held, except
        // `queue`, which is only written in `init`.

        /// The lifecycle of an operation: `pending`, then `running`, then `finished`; or `cancelled`, from
        /// `pending` or `running`.
        public enum State: Sendable, Equatable {
            case pending, running, finished, cancelled
        }

        private let lock: Lock
        private weak var queue: TaskQueue?
        fileprivate var stateValue = State.pending
        fileprivate var priorityValue: ImageRequest.Priority
        /// Bumped when the operation is re-queued; queue entries with an older generation are stale.
        fileprivate var generation = 0
        private var work: (@Sendable (Operation) -> Void)?
        private var didStart = false
        private var cancelHandlers: [@Sendable () -> Void] = []

        fileprivate init(
            queue: TaskQueue,
            priority: ImageRequest.Priority,
            work: @escaping @Sendable (Operation) -> Void
        ) {
            self.lock = queue.lock
            self.queue = queue
            self.priorityValue = priority
            self.work = work
        }

        /// The current state.
        public var state: State { lock.withLock { stateValue } }

        /// Whether the operation was cancelled, while pending or running.
        public var isCancelled: Bool { state == .cancelled }

        /// The priority of the operation.
        ///
        /// Changing it while the operation is pending moves the operation to the end of its new priority's line.
        /// Once the operation has started, the new value is stored but has no effect. Setting the current value
        /// does nothing.
        public var priority: ImageRequest.Priority {
            get { lock.withLock { priorityValue } }
            set {
                withQueue { queue in
                    lock.withLock {
                        guard newValue != priorityValue else { return }
                        let oldValue = priorityValue
                        priorityValue = newValue
                        if stateValue == .pending { queue?.requeueLocked(self, from: oldValue) }
                    }
                }
            }
        }

        /// Marks the running operation as finished and frees its slot, which may start pending work on the
        /// calling thread.
        ///
        /// The work calls this when done, from any thread. Idempotent; does nothing unless the operation is
        /// running (for example, once it has been cancelled).
        public func finish() {
            withQueue { queue in
                let droppedHandlers: [@Sendable () -> Void]? = lock.withLock {
                    guard stateValue == .running else { return nil }
                    stateValue = .finished
                    queue?.didStopRunningLocked(self)
                    let handlers = cancelHandlers
                    cancelHandlers = []
                    return handlers
                }
                guard droppedHandlers != nil else { return }  // Released after the lock is unlocked.
                queue?.drain()
            }
        }

        /// Cancels the operation.
        ///
        /// A pending operation leaves the queue and its work never runs. A running operation becomes
        /// `cancelled` and its slot is freed at once, which may start pending work on the calling thread after
        /// its cancel handlers run there. Stopping the actual work is up to the owner, for example in an
        /// ``onCancel(_:)`` handler; a later `finish()` does nothing. Idempotent; does nothing once the
        /// operation has finished.
        public func cancel() {
            withQueue { queue in
                let leftovers: Leftovers? = lock.withLock {
                    switch stateValue {
                    case .pending:
                        let leftovers = markCancelledLocked()
                        queue?.didCancelPendingLocked(self)
                        return leftovers
                    case .running:
                        queue?.didStopRunningLocked(self)
                        return markCancelledLocked()
                    case .finished, .cancelled:
                        return nil
                    }
                }
                guard let leftovers else { return }
                leftovers.callHandlers()
                if leftovers.wasRunning { queue?.drain() }
            }
        }

        /// Registers a handler that runs when ``cancel()`` or ``TaskQueue/cancelAll()`` cancels the operation
        /// while it is running, on the cancelling thread, outside any lock. Use it to stop the actual work.
        ///
        /// If the operation has already been cancelled while running, the handler runs at once on the calling
        /// thread. It never runs if the operation finishes, or is cancelled before it starts.
        public func onCancel(_ handler: @escaping @Sendable () -> Void) {
            let runsNow = lock.withLock {
                switch stateValue {
                case .pending, .running:
                    cancelHandlers.append(handler)
                    return false
                case .cancelled:
                    return didStart
                case .finished:
                    return false
                }
            }
            if runsNow { handler() }
        }

        // MARK: Internals (the `Locked` methods must be called with `lock` held)

        /// Calls `body` with the queue, keeping it alive until `body` returns: its deinit takes the lock, so the
        /// last reference must not go away while the lock is held.
        private func withQueue(_ body: (TaskQueue?) -> Void) {
            let queue = self.queue
            withExtendedLifetime(queue) { body(queue) }
        }

        /// Moves the pending operation to running and hands out its work.
        fileprivate func startLocked() -> @Sendable (Operation) -> Void {
            guard let work else { preconditionFailure("The operation has already started") }
            self.work = nil
            stateValue = .running
            didStart = true
            return work
        }

        /// Moves the pending or running operation to cancelled and takes out its closures, to be called or
        /// released once the lock is unlocked (their deinits may use the queue).
        fileprivate func markCancelledLocked() -> Leftovers {
            let leftovers = Leftovers(work: work, cancelHandlers: cancelHandlers, wasRunning: stateValue == .running)
            stateValue = .cancelled
            work = nil
            cancelHandlers = []
            return leftovers
        }
    }
}

/// The closures of a cancelled operation, taken out under the lock.
private struct Leftovers {
    let work: (@Sendable (TaskQueue.Operation) -> Void)?
    let cancelHandlers: [@Sendable () -> Void]
    let wasRunning: Bool

    /// Calls the cancel handlers if the operation was running. Call it outside the lock.
    func callHandlers() {
        guard wasRunning else { return }
        for handler in cancelHandlers { handler() }
    }
}

/// A queued operation. Entries aren't removed when their operation is cancelled or re-queued; they go stale.
private struct Entry {
    let operation: TaskQueue.Operation
    let generation: Int

    /// Whether the entry still stands for a pending operation. Requires the lock.
    var isLive: Bool { operation.stateValue == .pending && operation.generation == generation }
}

/// The first-in, first-out line of one priority, with lazy deletion: stale entries are skipped when popped,
/// and compacted away once they make up most of the line, so memory stays bounded however often operations
/// are cancelled or change priority. A line without live entries holds nothing. Requires the lock.
private struct Bucket {
    private var entries: [Entry] = []
    private var head = 0
    private var staleCount = 0

    var count: Int { entries.count - head }
    var liveEntries: [Entry] { entries[head...].filter(\.isLive) }

    mutating func append(_ entry: Entry) { entries.append(entry) }

    /// Records that one of the entries has gone stale.
    mutating func markStale() {
        staleCount += 1
        if staleCount == count {
            self = Bucket()
        } else if staleCount >= 64, staleCount * 2 > count {
            entries = liveEntries
            head = 0
            staleCount = 0
        }
    }

    /// Removes entries from the front up to the first live one, and returns its operation.
    mutating func popLive() -> TaskQueue.Operation? {
        while head < entries.count {
            let entry = entries[head]
            head += 1
            guard entry.isLive else {
                staleCount -= 1
                continue
            }
            if staleCount == count {
                self = Bucket()
            } else if head >= 64, head * 2 >= entries.count {
                entries.removeFirst(head)
                head = 0
            }
            return entry.operation
        }
        self = Bucket()
        return nil
    }
}
