import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `data(for:)`, `loadData` or prefetch request: the bytes of an image without decoding. It starts, ends
/// and changes priority through the same graph path as an ``ImageTask`` (see ``PublicTask``).
final class DataTask: Sendable {
    typealias Output = (Data, URLResponse?)
    typealias Outcome = Result<Output, ImagePipeline.Error>

    let request: ImageRequest
    /// Called in graph jobs as bytes arrive (completed, total), until the task finishes.
    let onProgress: (@Sendable (Int64, Int64) -> Void)?
    private let state: LockedValueBox<State>

    private struct State {
        var priority: ImageRequest.Priority
        var finishing = PublicTaskState<Output, CheckedContinuation<Outcome, Never>>()
        var onFinish: (@Sendable (Outcome) -> Void)?
    }

    init(
        request: ImageRequest,
        onProgress: (@Sendable (Int64, Int64) -> Void)? = nil,
        onFinish: (@Sendable (Outcome) -> Void)? = nil
    ) {
        self.request = request
        self.onProgress = onProgress
        self.state = LockedValueBox(State(priority: request.priority, onFinish: onFinish))
    }

    /// The current priority; changes reach the work through ``PipelineCore/updatePriority(of:)``.
    var priority: ImageRequest.Priority {
        get { state.withLock { $0.priority } }
        set { state.withLock { $0.priority = newValue } }
    }

    var isFinished: Bool { state.withLock { $0.finishing.result != nil } }

    /// Waits for the result.
    func wait() async -> Outcome {
        let result = await withCheckedContinuation { continuation in
            if let result = state.withLock({ $0.finishing.wait(continuation) }) {
                continuation.resume(returning: result)
            }
        }
        state.withLock { $0.finishing.didDeliver() }?.release()  // Received (released outside the lock).
        return result
    }

    /// Finishes the task; returns `false` if it had already finished.
    ///
    /// - Parameter ticket: The data's hold on the pipeline's byte budget: kept until a waiter receives the
    ///   result, or released now if nobody waits.
    @discardableResult
    func finish(with result: Outcome, holding ticket: ByteBudget.Ticket? = nil) -> Bool {
        let (finish, onFinish) = state.withLock { state in
            let finish = state.finishing.finish(with: result, holding: ticket)
            defer { if finish.isFinished { state.onFinish = nil } }
            return (finish, finish.isFinished ? state.onFinish : nil)
        }
        finish.ticketToRelease?.release()
        guard finish.isFinished else { return false }
        for waiter in finish.waiters { waiter.resume(returning: result) }
        onFinish?(result)
        return true
    }
}
