/// A queue of work with a concurrency limit and priorities, used for the pipeline's stages (data loading,
/// decoding, processing, encoding).
///
/// Pending work starts in priority order, first in, first out within a priority, whenever a slot is free and
/// the queue isn't suspended. Work owns its slot until it calls ``Operation/finish()`` or until the operation
/// is cancelled.
///
/// All members are thread-safe. Work is invoked outside the queue's lock, synchronously, on the thread that
/// made it startable: the thread that called ``add(priority:_:)``, ``Operation/finish()``,
/// ``Operation/cancel()``, ``cancelAll()``, or that resumed the queue or raised its limit. Work should
/// therefore return quickly and do the real work asynchronously. Only one thread at a time starts work, so
/// work that calls `finish()` (or adds more work) synchronously doesn't recurse: the next operation starts
/// once the current work returns.
///
/// The queue doesn't retain finished or cancelled operations, and operations only keep a weak reference to
/// their queue. When the queue is deallocated, its pending operations are cancelled.
public final class TaskQueue: @unchecked Sendable {
    // @unchecked: every `var` below, and every `var` of this queue's operations, is only read or written while
    // `lock` is held.
    fileprivate let lock = Lock()
    private var limit: Int
    private var suspended = false
    private var isDraining = false
    private var buckets = [Bucket](repeating: Bucket(), count: ImageRequest.Priority.allCases.count)
    private var pending = 0
    private var running: [ObjectIdentifier: Operation] = [:]

    /// Creates a queue that runs at most `maxConcurrentOperationCount` operations at a time (at least 1).
    public init(maxConcurrentOperationCount: Int) {
        precondition(maxConcurrentOperationCount >= 1, "maxConcurrentOperationCount must be at least 1")
        limit = maxConcurrentOperationCount
    }

    deinit {
        // Pending operations can never start now; cancel them so their state says so.
        lock.withLock {
            for bucket in buckets {
                for entry in bucket.liveEntries { _ = entry.operation.markCancelledLocked() }
            }
        }
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
    /// If a slot is free and the queue isn't suspended, `work` runs before this method returns (unless another
    /// thread is starting work at the moment, in which case that thread runs it). `work` runs at most once, and
    /// never if the operation is cancelled first. It receives the operation and must call
    /// ``Operation/finish()`` on it when done (from any thread).
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

    /// Cancels every pending and running operation, as ``Operation/cancel()`` does for each.
    ///
    /// Pending work never runs. The cancel handlers of running operations run on the calling thread.
    public func cancelAll() {
        let handlers = lock.withLock {
            for index in buckets.indices {
                for entry in buckets[index].liveEntries { _ = entry.operation.markCancelledLocked() }
                buckets[index] = Bucket()
            }
            pending = 0
            let handlers = running.values.flatMap { $0.markCancelledLocked() }
            running.removeAll()
            return handlers
        }
        for handler in handlers { handler() }
        drain()
    }

    // MARK: Internals (the `Locked` methods must be called with `lock` held)

    /// The number of entries the queue stores, stale ones included. For tests.
    var storedEntryCount: Int { lock.withLock { buckets.reduce(0) { $0 + $1.count } } }

    /// Starts pending operations while slots are free.
    ///
    /// A trampoline: only one thread drains at a time. Other threads that free a slot or add work while it
    /// drains return at once and leave the work to it. Whether to start another operation, or else to stop
    /// draining, is decided under a single lock acquisition, so no freed slot is missed.
    fileprivate func drain() {
        lock.lock()
        guard !isDraining else { return lock.unlock() }
        isDraining = true
        while let next = startNextLocked() {
            lock.unlock()
            next.work(next.operation)
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

    /// Called after the priority of a pending `operation` changed: moves it to the end of its new bucket.
    fileprivate func requeueLocked(_ operation: Operation, from oldPriority: ImageRequest.Priority) {
        operation.generation &+= 1
        buckets[operation.priorityValue.rawValue].append(
            Entry(operation: operation, generation: operation.generation))
        buckets[oldPriority.rawValue].markStale()
    }

}

extension TaskQueue {
    /// A unit of work in a ``TaskQueue``.
    ///
    /// All members are thread-safe. The operation keeps a weak reference to its queue; once the queue is gone,
    /// `finish()`, `cancel()`, and `priority` only update the operation itself.
    public final class Operation: @unchecked Sendable {
        // @unchecked: every `var` below is only read or written while `lock` (the queue's lock) is held.
        // `queue` is only written in `init`.

        /// The lifecycle of an operation: `pending` → `running` → `finished`, or `cancelled` from `pending` or
        /// `running`.
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

        /// Whether the operation was cancelled (while pending or running).
        public var isCancelled: Bool { state == .cancelled }

        /// The priority of the operation.
        ///
        /// Changing it while the operation is pending moves it to the end of its new priority's line. Once the
        /// operation has started, the new value is recorded but has no effect. Setting the current value does
        /// nothing.
        public var priority: ImageRequest.Priority {
            get { lock.withLock { priorityValue } }
            set {
                let queue = self.queue
                lock.withLock {
                    guard newValue != priorityValue else { return }
                    let oldValue = priorityValue
                    priorityValue = newValue
                    if stateValue == .pending { queue?.requeueLocked(self, from: oldValue) }
                }
            }
        }

        /// Marks a running operation as finished and frees its slot, which may start pending work on the
        /// calling thread.
        ///
        /// The work calls this when done, from any thread. Idempotent; does nothing unless the operation is
        /// running (for example, after it was cancelled).
        public func finish() {
            let queue = self.queue
            let didFinish = lock.withLock {
                guard stateValue == .running else { return false }
                stateValue = .finished
                cancelHandlers = []
                queue?.didStopRunningLocked(self)
                return true
            }
            if didFinish { queue?.drain() }
        }

        /// Cancels the operation.
        ///
        /// A pending operation is removed from the queue and its work never runs. A running operation becomes
        /// `cancelled` and its slot is freed at once (which may start pending work on the calling thread); its
        /// cancel handlers run on the calling thread first. Stopping the actual work is up to the owner, for
        /// example in an ``onCancel(_:)`` handler; a later `finish()` does nothing. Idempotent; does nothing
        /// once the operation has finished.
        public func cancel() {
            let queue = self.queue
            let result: (wasRunning: Bool, handlers: [@Sendable () -> Void])? = lock.withLock {
                let wasRunning: Bool
                switch stateValue {
                case .pending: wasRunning = false
                case .running: wasRunning = true
                case .finished, .cancelled: return nil
                }
                let handlers = markCancelledLocked()
                if wasRunning {
                    queue?.didStopRunningLocked(self)
                } else {
                    queue?.didCancelPendingLocked(self)
                }
                return (wasRunning, handlers)
            }
            guard let result else { return }
            for handler in result.handlers { handler() }
            if result.wasRunning { queue?.drain() }
        }

        /// Registers a handler that runs, outside any lock, when ``cancel()`` (or ``TaskQueue/cancelAll()``)
        /// cancels the operation while it is running. Use it to stop the actual work.
        ///
        /// If the operation was already cancelled while running, the handler runs at once on the calling thread.
        /// The handler never runs if the operation finishes or is cancelled before it starts.
        public func onCancel(_ handler: @escaping @Sendable () -> Void) {
            let runNow = lock.withLock {
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
            if runNow { handler() }
        }

        // MARK: Internals (the `Locked` methods must be called with `lock` held)

        /// Moves a pending operation to running and hands out its work.
        fileprivate func startLocked() -> @Sendable (Operation) -> Void {
            guard let work else { preconditionFailure("The operation has already started") }
            self.work = nil
            stateValue = .running
            didStart = true
            return work
        }

        /// Moves a pending or running operation to cancelled and returns the cancel handlers to call.
        fileprivate func markCancelledLocked() -> [@Sendable () -> Void] {
            stateValue = .cancelled
            work = nil
            defer { cancelHandlers = [] }
            return didStart ? cancelHandlers : []
        }
    }
}

/// A queued operation. Entries aren't removed when their operation is cancelled or re-queued; they go stale.
private struct Entry {
    let operation: TaskQueue.Operation
    let generation: Int

    /// Whether the entry still stands for a pending operation. Requires the queue's lock.
    var isLive: Bool { operation.stateValue == .pending && operation.generation == generation }
}

/// The FIFO line of one priority, with lazy deletion: stale entries are skipped when popped and compacted away
/// once they make up most of the line, so memory stays bounded however often priorities change.
private struct Bucket {
    private var entries: [Entry] = []
    private var head = 0
    private var staleCount = 0

    var liveEntries: [Entry] { entries[head...].filter(\.isLive) }
    var count: Int { entries.count - head }

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

    /// Removes entries from the front until a live one, and returns its operation.
    mutating func popLive() -> TaskQueue.Operation? {
        while head < entries.count {
            let entry = entries[head]
            head += 1
            if entry.isLive {
                trimIfNeeded()
                return entry.operation
            }
            staleCount -= 1
        }
        self = Bucket()
        return nil
    }

    /// Drops popped entries, and stale ones if nothing live is left, so an idle bucket holds nothing.
    private mutating func trimIfNeeded() {
        if staleCount == count {
            self = Bucket()
        } else if head >= 64, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
