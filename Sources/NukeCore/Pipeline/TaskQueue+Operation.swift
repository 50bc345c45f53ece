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
