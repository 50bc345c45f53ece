/// A running image request: await its result, watch its events, change its priority or cancel it.
///
/// Created by ``ImagePipeline/imageTask(with:)-(ImageRequest)`` and friends; it starts immediately. Every
/// member is safe to use from any thread.
///
/// ```swift
/// let task = pipeline.imageTask(with: url)
/// for await event in task.events {
///     if case let .progress(progress) = event { print(progress.fraction) }
/// }
/// let image = try await task.image
/// ```
public final class ImageTask: Hashable, Sendable, CustomStringConvertible {
    /// A unique identifier of the task within the process.
    public let taskId: Int64

    /// The request the task serves.
    public let request: ImageRequest

    private let core: PipelineCore
    private let storage: LockedValueBox<Storage>
    private let onEvent: (@Sendable (Event) -> Void)?

    private struct Storage {
        var priority: ImageRequest.Priority
        var progress = Progress(completed: 0, total: 0)
        var result: Result<ImageResponse, ImagePipeline.Error>?
        var waiters: [CheckedContinuation<ImageResponse, any Error>] = []
        var streams: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextStreamID = 0
    }

    init(request: ImageRequest, core: PipelineCore, onEvent: (@Sendable (Event) -> Void)? = nil) {
        self.taskId = ImageTask.nextID.withLock { id in
            id += 1
            return id
        }
        self.request = request
        self.core = core
        self.storage = LockedValueBox(Storage(priority: request.priority))
        self.onEvent = onEvent
    }

    private static let nextID = LockedValueBox<Int64>(0)

    // MARK: Priority and cancellation

    /// The priority of the task. Settable at any time; the last value set wins. Shared work runs at the
    /// highest priority of the tasks waiting for it.
    public var priority: ImageRequest.Priority {
        get { storage.withLock { $0.priority } }
        set {
            let changed = storage.withLock { state in
                guard state.result == nil, state.priority != newValue else { return false }
                state.priority = newValue
                return true
            }
            if changed {
                core.mailbox.post { [core] in core.updatePriority(of: self) }
            }
        }
    }

    /// Cancels the task: it finishes at once with ``ImagePipeline/Error/cancelled`` and the work it started is
    /// cancelled unless other tasks still need it. Idempotent; does nothing after the task finished.
    public func cancel() {
        if finish(with: .failure(.cancelled)) {
            core.mailbox.post { [core] in core.cancel(self) }
        }
    }

    // MARK: State

    /// The state of a task.
    public enum State: Sendable, Equatable {
        /// Loading.
        case running
        /// Cancelled before it finished.
        case cancelled
        /// Finished with an image or an error.
        case completed
    }

    /// The current state.
    public var state: State {
        switch storage.withLock({ $0.result }) {
        case nil: .running
        case .failure(.cancelled): .cancelled
        default: .completed
        }
    }

    /// Download progress.
    public struct Progress: Hashable, Sendable, CustomStringConvertible {
        /// Bytes received.
        public var completed: Int64
        /// Bytes expected; 0 when the size isn't known yet.
        public var total: Int64

        /// Creates a progress value.
        public init(completed: Int64, total: Int64) {
            self.completed = completed
            self.total = total
        }

        /// `completed / total`, or 0 when the total is unknown.
        public var fraction: Float {
            total > 0 ? min(1, Float(completed) / Float(total)) : 0
        }

        public var description: String { "\(completed)/\(total)" }
    }

    /// The latest download progress.
    public var progress: Progress { storage.withLock { $0.progress } }

    var isFinished: Bool { storage.withLock { $0.result != nil } }

    // MARK: Results

    /// The image. Can be awaited any number of times, before or after the task finished.
    ///
    /// Throws ``ImagePipeline/Error``; cancelling the awaiting Swift task cancels the image task.
    public var image: PlatformImage {
        get async throws { try await response.image }
    }

    /// The response. Can be awaited any number of times, before or after the task finished.
    ///
    /// Throws ``ImagePipeline/Error``; cancelling the awaiting Swift task cancels the image task.
    public var response: ImageResponse {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let result = storage.withLock { state in
                        if state.result == nil { state.waiters.append(continuation) }
                        return state.result
                    }
                    if let result { continuation.resume(with: result) }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    // MARK: Events

    /// What happens to a task.
    public enum Event: Sendable {
        /// More data arrived.
        case progress(Progress)
        /// A preview of a partially downloaded image.
        case preview(ImageResponse)
        /// The task finished; always the last event, delivered exactly once per stream.
        case finished(Result<ImageResponse, ImagePipeline.Error>)
    }

    /// A new stream of the task's events from now on; ends after ``Event/finished(_:)``.
    ///
    /// Each access makes a new stream. A stream made after the task finished replays the `finished` event.
    public var events: AsyncStream<Event> {
        AsyncStream { continuation in
            let replay = storage.withLock { state -> Result<ImageResponse, ImagePipeline.Error>? in
                if let result = state.result { return result }
                state.nextStreamID += 1
                let id = state.nextStreamID
                state.streams[id] = continuation
                continuation.onTermination = { [weak self] _ in
                    _ = self?.storage.withLock { $0.streams.removeValue(forKey: id) }
                }
                return nil
            }
            if let replay {
                continuation.yield(.finished(replay))
                continuation.finish()
            }
        }
    }

    /// Delivers a non-terminal event.
    func deliver(_ event: Event) {
        let streams = storage.withLock { state -> [AsyncStream<Event>.Continuation]? in
            guard state.result == nil else { return nil }
            if case let .progress(progress) = event { state.progress = progress }
            return Array(state.streams.values)
        }
        guard let streams else { return }
        for stream in streams { stream.yield(event) }
        onEvent?(event)
    }

    /// Finishes the task; returns `false` if it had already finished.
    @discardableResult
    func finish(with result: Result<ImageResponse, ImagePipeline.Error>) -> Bool {
        let taken = storage.withLock {
            state -> ([CheckedContinuation<ImageResponse, any Error>], [AsyncStream<Event>.Continuation])? in
            guard state.result == nil else { return nil }
            state.result = result
            defer {
                state.waiters = []
                state.streams = [:]
            }
            return (state.waiters, Array(state.streams.values))
        }
        guard let (waiters, streams) = taken else { return false }
        onEvent?(.finished(result))  // First, so a completion handler is scheduled before awaiting code resumes.
        for waiter in waiters { waiter.resume(with: result.mapError { $0 }) }
        for stream in streams {
            stream.yield(.finished(result))
            stream.finish()
        }
        return true
    }

    // MARK: Hashable

    public static func == (lhs: ImageTask, rhs: ImageTask) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String { "ImageTask(id: \(taskId), \(request), state: \(state))" }
}
