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
/// The queue doesn't retain finished or cancelled operations, and operations don't retain their queue (they share
/// only its lock and state). When the queue is deallocated, its pending operations are cancelled.
public final class TaskQueue: Sendable {
    /// The lock and the decisions, shared with the operations; see ``TaskQueueState``.
    let storage: Storage

    /// Creates a queue that runs at most `maxConcurrentOperationCount` operations at a time (at least 1).
    public init(maxConcurrentOperationCount: Int = ProcessInfo.processInfo.processorCount) {
        storage = Storage(limit: maxConcurrentOperationCount)
    }

    deinit {
        // Pending operations can never start now; cancel them so their state says so.
        let leftovers = storage.withLock { $0.close() }
        _ = leftovers  // Released here, outside the lock: what their closures capture may use the queue's lock.
    }

    /// The maximum number of operations that run at a time (at least 1).
    ///
    /// Raising it starts pending work at once. Lowering it doesn't stop running work; nothing new starts until
    /// the running count drops below the new limit.
    public var maxConcurrentOperationCount: Int {
        get { storage.withLock { $0.limit } }
        set { storage.run(storage.withLock { $0.setLimit(newValue) }) }
    }

    /// While `true`, no new work starts; running work continues. Setting it to `false` starts pending work in
    /// priority order. `false` by default.
    public var isSuspended: Bool {
        get { storage.withLock { $0.isSuspended } }
        set { storage.run(storage.withLock { $0.setSuspended(newValue) }) }
    }

    /// The number of operations that are queued and haven't started (cancelled operations aren't counted).
    public var pendingCount: Int { storage.withLock { $0.pendingCount } }

    /// The number of operations that started and haven't finished or been cancelled.
    public var runningCount: Int { storage.withLock { $0.runningCount } }

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
        let operation = Operation(storage: storage, priority: priority, work: work)
        storage.run(storage.withLock { $0.add(operation) })
        return operation
    }

    /// Cancels every pending and running operation, as ``Operation/cancel()`` does.
    ///
    /// Pending work never runs. The cancel handlers of running operations run on the calling thread.
    public func cancelAll() {
        do {
            let cancellations = storage.withLock { $0.cancelAll() }
            for cancellation in cancellations where cancellation.wasRunning {
                for handler in cancellation.cancelHandlers { handler() }
            }
        }  // The closures are released here, outside the lock, before any new work starts.
        storage.run(storage.withLock { $0.drain() })
    }

    /// The number of entries the queue stores, stale ones included. For tests.
    var storedEntryCount: Int { storage.withLock { $0.storedEntryCount } }
}

extension TaskQueue {
    /// What a queue shares with its operations: the lock, and the state machine it guards. Operations hold this,
    /// not the queue, so they don't keep the queue alive; the queue closes the state when it's deallocated. (A
    /// strong reference to this rather than a weak one to the queue also spares every call of an operation a weak
    /// load, and the queue the slower reference counting that weak references bring.)
    final class Storage: @unchecked Sendable {
        // @unchecked: `state`, and the `record` of every operation of the queue, are only read or written while
        // `lock` is held. The lock already makes every access exclusive, so they opt out of the runtime's dynamic
        // exclusivity checks (`@exclusivity(unchecked)`), a measurable share of an `add`-to-`finish` cycle.
        let lock = Lock.make()
        @exclusivity(unchecked) private var state: TaskQueueState<Operation>

        init(limit: Int) {
            state = TaskQueueState(limit: limit)
        }

        /// Runs `body` with the state, under the lock. `body` must not call out (work, handlers, releases of
        /// closures happen after it returns).
        @inline(__always)
        func withLock<T>(_ body: (inout TaskQueueState<Operation>) -> T) -> T {
            lock.withLock { body(&state) }
        }

        /// Runs the work the state machine handed out (if any), then, as the drainer, whatever it starts next
        /// until it says stop. A trampoline: a thread that frees a slot or adds work while another one drains gets
        /// nothing to start and returns at once, leaving the work to the drainer.
        func run(_ first: consuming TaskQueueState<Operation>.Start?) {
            var next = first
            while true {
                do {
                    guard let start = next.take() else { return }
                    start.work(start.element)
                }  // The work closure is released here, before locking: its deinit may use the queue.
                next = withLock { $0.nextStart() }
            }
        }

        /// Carries out a cancellation outside the lock: calls the cancel handlers of an operation that was
        /// running, releases its closures, then lets the freed slot start pending work.
        func complete(_ cancellation: consuming TaskQueueState<Operation>.Cancellation) {
            let drainsAfter = cancellation.drainsAfter
            do {
                let cancellation = consume cancellation
                if cancellation.wasRunning {
                    for handler in cancellation.cancelHandlers { handler() }
                }
            }  // The closures are released here, before any new work starts.
            if drainsAfter { run(withLock { $0.drain() }) }
        }
    }
}

extension TaskQueue {
    /// A unit of work in a ``TaskQueue``.
    ///
    /// All members are thread-safe. The operation doesn't keep its queue alive; once the queue is gone,
    /// `finish()`, `cancel()`, and `priority` only update the operation itself.
    public final class Operation: @unchecked Sendable {
        // @unchecked: `record` is only read or written under the lock of `storage`, and only changed by the
        // queue's state machine (``TaskQueueState``); see `Storage` for why it opts out of exclusivity checks.

        /// The lifecycle of an operation: `pending`, then `running`, then `finished`; or `cancelled`, from
        /// `pending` or `running`.
        public enum State: Sendable, Equatable {
            case pending, running, finished, cancelled
        }

        private let storage: Storage
        /// The operation's state, priority, work and cancel handlers, kept by the queue's state machine.
        @exclusivity(unchecked) var record: TaskQueueState<Operation>.Record

        init(storage: Storage, priority: ImageRequest.Priority, work: @escaping @Sendable (Operation) -> Void) {
            self.storage = storage
            self.record = TaskQueueState.Record(priority: priority, work: work)
        }

        /// The current state.
        public var state: State { storage.lock.withLock { record.state } }

        /// Whether the operation was cancelled, while pending or running.
        public var isCancelled: Bool { state == .cancelled }

        /// The priority of the operation.
        ///
        /// Changing it while the operation is pending moves the operation to the end of its new priority's line.
        /// Once the operation has started, the new value is stored but has no effect. Setting the current value
        /// does nothing.
        public var priority: ImageRequest.Priority {
            get { storage.lock.withLock { record.priority } }
            set { storage.withLock { $0.setPriority(newValue, of: self) } }
        }

        /// Marks the running operation as finished and frees its slot, which may start pending work on the
        /// calling thread.
        ///
        /// The work calls this when done, from any thread. Idempotent; does nothing unless the operation is
        /// running (for example, once it has been cancelled).
        public func finish() {
            let next: TaskQueueState<TaskQueue.Operation>.Start?
            do {
                guard var finish = storage.withLock({ $0.finish(self) }) else { return }
                next = finish.next.take()
            }  // The cancel handlers, which won't run now, are released here, outside the lock.
            storage.run(next)
        }

        /// Cancels the operation.
        ///
        /// A pending operation leaves the queue and its work never runs. A running operation becomes
        /// `cancelled` and its slot is freed at once, which may start pending work on the calling thread after
        /// its cancel handlers run there. Stopping the actual work is up to the owner, for example in an
        /// ``onCancel(_:)`` handler; a later `finish()` does nothing. Idempotent; does nothing once the
        /// operation has finished.
        public func cancel() {
            guard let cancellation = storage.withLock({ $0.cancel(self) }) else { return }
            storage.complete(cancellation)
        }

        /// Registers a handler that runs when ``cancel()`` or ``TaskQueue/cancelAll()`` cancels the operation
        /// while it is running, on the cancelling thread, outside any lock. Use it to stop the actual work.
        ///
        /// If the operation has already been cancelled while running, the handler runs at once on the calling
        /// thread. It never runs if the operation finishes, or is cancelled before it starts.
        public func onCancel(_ handler: @escaping @Sendable () -> Void) {
            let runsNow = storage.withLock { $0.addCancelHandler(handler, to: self) }
            if runsNow { handler() }
        }
    }
}

extension TaskQueue.Operation: TaskQueueStateElement {
    typealias Work = @Sendable (TaskQueue.Operation) -> Void
    typealias CancelHandler = @Sendable () -> Void
}
