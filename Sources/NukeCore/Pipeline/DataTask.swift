import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `data(for:)` request: the bytes of an image without decoding.
final class DataTask: Sendable {
    typealias Output = (Data, URLResponse?)

    let request: ImageRequest
    /// Called on the pipeline's actor as bytes arrive (completed, total), until the task finishes.
    let onProgress: (@Sendable (Int64, Int64) -> Void)?
    private let state: LockedValueBox<State>

    private struct State {
        var priority: ImageRequest.Priority
        var result: Result<Output, ImagePipeline.Error>?
        var waiter: CheckedContinuation<Result<Output, ImagePipeline.Error>, Never>?
        var onFinish: (@Sendable (Result<Output, ImagePipeline.Error>) -> Void)?
        /// The data's hold on the pipeline's byte budget, kept until the waiter receives it.
        var ticket: ByteBudget.Ticket?
    }

    init(
        request: ImageRequest,
        onProgress: (@Sendable (Int64, Int64) -> Void)? = nil,
        onFinish: (@Sendable (Result<Output, ImagePipeline.Error>) -> Void)? = nil
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

    var isFinished: Bool { state.withLock { $0.result != nil } }

    /// Waits for the result (one waiter).
    func wait() async -> Result<Output, ImagePipeline.Error> {
        let result = await withCheckedContinuation { continuation in
            let result = state.withLock { state in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let result { continuation.resume(returning: result) }
        }
        state.withLock { $0.ticket.take() }?.release()  // Received (released outside the lock).
        return result
    }

    /// Finishes the task; returns `false` if it had already finished.
    ///
    /// - Parameter ticket: The data's hold on the pipeline's byte budget: kept until the waiter receives the
    ///   result, or released now if nobody waits.
    @discardableResult
    func finish(with result: Result<Output, ImagePipeline.Error>, holding ticket: ByteBudget.Ticket? = nil) -> Bool {
        var isTicketHeld = false
        defer { if !isTicketHeld { ticket?.release() } }
        let taken = state.withLock {
            state -> (
                CheckedContinuation<Result<Output, ImagePipeline.Error>, Never>?,
                (@Sendable (Result<Output, ImagePipeline.Error>) -> Void)?
            )? in
            guard state.result == nil else { return nil }
            state.result = result
            if state.waiter != nil, let ticket {
                state.ticket = ticket
                isTicketHeld = true
            }
            defer {
                state.waiter = nil
                state.onFinish = nil
            }
            return (state.waiter, state.onFinish)
        }
        guard let (waiter, onFinish) = taken else { return false }
        waiter?.resume(returning: result)
        onFinish?(result)
        return true
    }
}
