import Synchronization

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
public final class ImageTask: Hashable, Identifiable, Sendable, CustomStringConvertible {
    /// A unique identifier of the task within the process (unique across pipelines too).
    public let taskId: UInt64

    /// The request the task serves.
    public let request: ImageRequest

    private let core: PipelineCore
    private let storage: LockedValueBox<Storage>
    private let onEvent: (@Sendable (Event) -> Void)?

    private struct Storage {
        /// The priority, cancellation and progress; its `result` mirrors `finishing.result`.
        var status: Status
        var finishing = PublicTaskState<ImageResponse, CheckedContinuation<Outcome, Never>>()
        var streams: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextStreamID = 0
    }

    typealias Outcome = Result<ImageResponse, ImagePipeline.Error>

    init(request: ImageRequest, core: PipelineCore, onEvent: (@Sendable (Event) -> Void)? = nil) {
        self.taskId = ImageTask.nextID.add(1, ordering: .relaxed).newValue
        self.request = request
        self.core = core
        self.storage = LockedValueBox(Storage(status: Status(priority: request.priority)))
        self.onEvent = onEvent
    }

    private static let nextID = Atomic<UInt64>(0)

    // MARK: Priority and cancellation

    /// The priority of the task. Settable at any time; the last value set wins (also after the task
    /// finished, when it no longer affects any work). Shared work runs at the highest priority of the tasks
    /// waiting for it.
    public var priority: ImageRequest.Priority {
        get { storage.withLock { $0.status.priority } }
        set {
            let changed = storage.withLock { state in
                guard state.status.priority != newValue else { return false }
                state.status.priority = newValue
                return state.status.result == nil
            }
            if changed {
                core.mailbox.post { [core] in core.updatePriority(of: self) }
            }
        }
    }

    /// Cancels the task: it finishes at once with ``ImagePipeline/Error/cancelled`` and the work it started is
    /// cancelled unless other tasks still need it. Idempotent; does nothing after the task finished.
    public func cancel() {
        storage.withLock { $0.status.isCancelled = true }
        if finish(with: .failure(.cancelled)) {
            core.statistics.withLock { $0.cancellations += 1 }
            core.mailbox.post { [core] in core.cancel(self) }
        }
    }

    /// `true` once ``cancel()`` was called (directly, or by cancelling a Swift task awaiting the result).
    ///
    /// Cancellation is a request: it is recorded even after the task finished. ``Status/result`` says how the
    /// task actually ended.
    public var isCancelled: Bool { storage.withLock { $0.status.isCancelled } }

    /// Everything about the task that changes while it runs, read at one point in time.
    public var status: Status { storage.withLock { $0.status } }

    /// A snapshot of a task's changing state (see ``ImageTask/status``).
    public struct Status: Sendable {
        /// How the task finished, or `nil` while it runs. Set before the ``Event/finished(_:)`` event is sent.
        public internal(set) var result: Result<ImageResponse, ImagePipeline.Error>?
        /// Whether ``ImageTask/cancel()`` was called.
        public internal(set) var isCancelled = false
        /// The task's priority.
        public internal(set) var priority: ImageRequest.Priority = .normal
        /// The download progress (zeros until the download starts and its size is known).
        public internal(set) var progress = Progress(completed: 0, total: 0)

        /// Creates the status of a task that has just started (for tests and previews of code that reads it).
        public init() {}

        init(priority: ImageRequest.Priority) {
            self.priority = priority
        }
    }

    /// The identity of the task object (``taskId`` is a number for logs).
    public var id: ObjectIdentifier { ObjectIdentifier(self) }

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
        switch storage.withLock({ $0.status.result }) {
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
    public var currentProgress: Progress { storage.withLock { $0.status.progress } }

    var isFinished: Bool { storage.withLock { $0.status.result != nil } }

    // MARK: Results

    /// The image. Can be awaited any number of times, before or after the task finished.
    ///
    /// Throws ``ImagePipeline/Error``; cancelling the awaiting Swift task cancels the image task.
    public var image: PlatformImage {
        get async throws(ImagePipeline.Error) { try await response.image }
    }

    /// The response. Can be awaited any number of times, before or after the task finished.
    ///
    /// Throws ``ImagePipeline/Error``; cancelling the awaiting Swift task cancels the image task.
    public var response: ImageResponse {
        get async throws(ImagePipeline.Error) {
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if let result = storage.withLock({ $0.finishing.wait(continuation) }) {
                        continuation.resume(returning: result)
                    }
                }
            } onCancel: {
                cancel()
            }
            // Received: the pipeline no longer counts the image (released outside the lock).
            storage.withLock { $0.finishing.didDeliver() }?.release()
            return try result.get()
        }
    }

    // MARK: Events

    /// What happens to a task.
    ///
    /// The cases are Nuke 13.2's, the latest release: code that switches over them exhaustively compiles
    /// unchanged. Nuke's main branch (Nuke 14) drops ``started`` in favour of
    /// ``ImagePipeline/Delegate/imageTaskDidStart(_:pipeline:)``, so a `switch` written for it
    /// needs a `case .started: break` (or a `default`) here.
    public enum Event: Sendable {
        /// The pipeline started the task.
        ///
        /// Sent only to ``ImagePipeline/Delegate/imageTask(_:didReceiveEvent:pipeline:)``, right
        /// after ``ImagePipeline/Delegate/imageTaskDidStart(_:pipeline:)`` and before any other
        /// event, as Nuke 13.2 sends it; never for a task cancelled before it started. ``ImageTask/events``
        /// (and so ``ImageTask/progress`` and ``ImageTask/previews``) never yields it, as in Nuke.
        case started
        /// More data arrived.
        case progress(Progress)
        /// A preview of a partially downloaded image.
        case preview(ImageResponse)
        /// The task finished; always the last event, delivered exactly once per stream.
        case finished(Result<ImageResponse, ImagePipeline.Error>)
    }

    /// A new stream of the task's events from now on; ends after ``Event/finished(_:)``.
    ///
    /// Each access makes a new stream. A stream made after the task finished replays the `finished` event; one
    /// made mid-download starts with the current progress. Events a slow consumer hasn't read yet are buffered.
    public var events: AsyncStream<Event> {
        AsyncStream { continuation in
            let replay = storage.withLock { state -> Result<ImageResponse, ImagePipeline.Error>? in
                if let result = state.status.result { return result }
                if state.status.progress != Progress(completed: 0, total: 0) {
                    continuation.yield(.progress(state.status.progress))
                }
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

    /// The download progress as it changes: a view of a new ``events`` stream.
    ///
    /// ```swift
    /// for await progress in task.progress { print(progress.fraction) }
    /// ```
    public var progress: AsyncCompactMapSequence<AsyncStream<Event>, Progress> {
        events.compactMap {
            if case let .progress(value) = $0 { return value }
            return nil
        }
    }

    /// The progressive previews as they are decoded (see
    /// ``ImagePipeline/Configuration/isProgressiveDecodingEnabled``): a view of a new ``events`` stream.
    public var previews: AsyncCompactMapSequence<AsyncStream<Event>, ImageResponse> {
        events.compactMap {
            if case let .preview(value) = $0 { return value }
            return nil
        }
    }

    /// Delivers a non-terminal event.
    func deliver(_ event: Event) {
        // Yielded under the lock, so no event can follow the `finished` event that `finish` yields (yielding
        // only schedules the consumer; it never calls back into this task).
        let isDelivered = storage.withLock { state -> Bool in
            guard state.status.result == nil else { return false }
            if case let .progress(progress) = event { state.status.progress = progress }
            for stream in state.streams.values { stream.yield(event) }
            return true
        }
        if isDelivered { onEvent?(event) }
    }

    /// Finishes the task; returns `false` if it had already finished.
    ///
    /// - Parameter ticket: The result's hold on the pipeline's byte budget: kept until a waiter of ``response``
    ///   receives the result, or released now if nobody waits (the result is then the app's).
    @discardableResult
    func finish(with result: Outcome, holding ticket: ByteBudget.Ticket? = nil) -> Bool {
        let (finish, streams) = storage.withLock {
            state -> (
                PublicTaskState<ImageResponse, CheckedContinuation<Outcome, Never>>.Finish,
                [AsyncStream<Event>.Continuation]
            ) in
            let finish = state.finishing.finish(with: result, holding: ticket)
            guard finish.isFinished else { return (finish, []) }
            state.status.result = result
            defer { state.streams = [:] }
            return (finish, Array(state.streams.values))
        }
        finish.ticketToRelease?.release()
        guard finish.isFinished else { return false }
        onEvent?(.finished(result))  // First, so a completion handler is scheduled before awaiting code resumes.
        for waiter in finish.waiters { waiter.resume(returning: result) }
        for stream in streams {
            stream.yield(.finished(result))
            stream.finish()
        }
        return true
    }

    // MARK: Hashable

    public static func == (lhs: ImageTask, rhs: ImageTask) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `ImageTask(id: 1, priority: normal, progress: 10 / 100, state: running)` — Nuke's format. The state is
    /// `running`, `cancelled`, `success` or `failure(…)`.
    ///
    /// A cancelled task reads `cancelled`, as in Nuke 13.2 (and as Nuke 14's ``state`` reports it), also once
    /// it has finished with ``ImagePipeline/Error/cancelled``; a task cancelled after it finished keeps the state
    /// it finished with.
    public var description: String {
        let status = self.status
        let state =
            switch status.result {
            case nil: status.isCancelled ? "cancelled" : "running"
            case .failure(.cancelled): "cancelled"
            case .success: "success"
            case let .failure(error): "failure(\(error))"
            }
        return "ImageTask(id: \(taskId), priority: \(status.priority), progress: \(status.progress.completed) / "
            + "\(status.progress.total), state: \(state))"
    }
}
