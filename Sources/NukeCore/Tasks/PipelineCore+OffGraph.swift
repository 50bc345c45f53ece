import Dispatch

/// The one way a stage does work off the pipeline's actor — read a cache, decode, process, encode — and
/// comes back: wait for a slot in the stage's queue, run the work off the actor, free the slot, and post the
/// result to the actor through the mailbox (so results arrive in order with everything else).
extension PipelineCore {
    /// Runs synchronous `work` on a global dispatch queue once `queue` has a slot for it.
    ///
    /// - Parameters:
    ///   - qos: The quality of service of the dispatch queue the work runs on.
    ///   - work: Runs off the actor, at most once; not at all if the operation is cancelled before it starts.
    ///   - then: Called on the actor with the result and the operation, unless the work didn't run; `nil` posts
    ///     nothing (fire-and-forget work such as encoding for the disk cache).
    /// - Returns: The operation, which cancels the work (if it hasn't started) and changes its priority.
    @discardableResult
    nonisolated func runOffGraph<Output: Sendable>(
        on queue: TaskQueue,
        priority: ImageRequest.Priority,
        qos: DispatchQoS.QoSClass = .userInitiated,
        _ work: @escaping @Sendable () -> Output,
        then: (@Sendable @ImagePipelineActor (Output, TaskQueue.Operation) -> Void)?
    ) -> TaskQueue.Operation {
        let mailbox = self.mailbox
        return queue.add(priority: priority) { operation in
            DispatchQueue.global(qos: qos).async {
                guard !operation.isCancelled else { return }
                let output = work()
                operation.finish()
                if let then { mailbox.post { then(output, operation) } }
            }
        }
    }

    /// Runs asynchronous `work` (an ``AsyncImageDecoding`` decoder, a request's image closure) in a detached
    /// Swift task once `queue` has a slot for it; see ``runOffGraph(on:priority:qos:_:then:)``.
    ///
    /// - Parameter running: Receives the Swift task running the work, for callers that cancel it.
    @discardableResult
    nonisolated func runOffGraphAsync<Output: Sendable>(
        on queue: TaskQueue,
        priority: ImageRequest.Priority,
        running: LockedValueBox<Task<Void, Never>?>? = nil,
        _ work: @escaping @Sendable () async -> Output,
        then: @escaping @Sendable @ImagePipelineActor (Output, TaskQueue.Operation) -> Void
    ) -> TaskQueue.Operation {
        let mailbox = self.mailbox
        return queue.add(priority: priority) { operation in
            let task = Task.detached(priority: .userInitiated) {
                guard !operation.isCancelled else { return }
                let output = await work()
                operation.finish()
                mailbox.post { then(output, operation) }
            }
            running?.withLock { $0 = task }
        }
    }
}
