public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Loads, decodes, processes and caches images, sharing work between equivalent requests.
///
/// ```swift
/// let pipeline = ImagePipeline { $0.dataLoader = CurlDataLoader() }
/// let image = try await pipeline.image(for: URL(string: "https://example.com/image.jpeg")!)
/// ```
///
/// Work is a graph of shared tasks: requests that need the same bytes share one download, requests that need
/// the same decoded image share one decode, and processor chains share their common prefix. Every method is
/// safe to call from any thread.
public final class ImagePipeline: Sendable {
    /// The configuration the pipeline was created with.
    public let configuration: ImagePipeline.Configuration

    let core: PipelineCore
    private let isInvalidated = LockedValueBox(false)

    /// The pipeline used by default. Apps set it up once at start-up (the `Nuke` product does it in one call).
    public static var shared: ImagePipeline {
        get { sharedPipeline.withLock { $0 } }
        set { sharedPipeline.withLock { $0 = newValue } }
    }

    private static let sharedPipeline = LockedValueBox(ImagePipeline())

    /// The delegate the pipeline was created with (a default one that uses the configuration if none).
    public var delegate: any ImagePipeline.Delegate { core.delegate }

    /// Creates a pipeline.
    ///
    /// - Parameters:
    ///   - configuration: The loader, caches, codecs, queues and policies.
    ///   - delegate: Customises the pipeline per request and observes its tasks; held strongly.
    public init(configuration: ImagePipeline.Configuration = .init(), delegate: (any ImagePipeline.Delegate)? = nil) {
        self.configuration = configuration
        self.core = PipelineCore(configuration: configuration, delegate: delegate)
        core.pipeline = self
    }

    /// Creates a pipeline from a configuration that `configure` adjusts.
    ///
    /// ```swift
    /// let pipeline = ImagePipeline { $0.isTaskCoalescingEnabled = false }
    /// ```
    /// ```swift
    /// let pipeline = ImagePipeline(delegate: myDelegate) { $0.dataLoader = CurlDataLoader() }
    /// ```
    ///
    /// - Parameters:
    ///   - delegate: Customises the pipeline per request and observes its tasks; held strongly.
    ///   - configure: Adjusts a default ``Configuration``.
    public convenience init(
        delegate: (any ImagePipeline.Delegate)? = nil, _ configure: (inout ImagePipeline.Configuration) -> Void
    ) {
        var configuration = ImagePipeline.Configuration()
        configure(&configuration)
        self.init(configuration: configuration, delegate: delegate)
    }

    /// The caches of the pipeline (memory cache lookups by request).
    public var cache: ImagePipeline.Cache { ImagePipeline.Cache(pipeline: self) }

    // MARK: Async API

    /// Loads the image for `request`. Cancelling the calling Swift task cancels the load.
    ///
    /// A memory cache hit returns at once, without creating a task, unless the pipeline has a delegate (which
    /// observes every task).
    public func image(for request: ImageRequest) async throws(ImagePipeline.Error) -> PlatformImage {
        if !core.hasCustomDelegate, !isInvalidated.snapshot,
            let container = core.cachedImage(for: request), !container.isPreview
        {
            core.statistics.withLock { $0.memoryCacheHits += 1 }
            return container.image
        }
        // Started on this thread (no hop); a Swift task already cancelled starts later, so its cancel is seen
        // before any work starts, as for ``imageTask(with:)-(ImageRequest)``.
        return try await makeImageTask(request, onEvent: nil, startsOnThisThread: !Task.isCancelled).image
    }

    /// Loads the image at `url`. Cancelling the calling Swift task cancels the load.
    public func image(for url: URL) async throws(ImagePipeline.Error) -> PlatformImage {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading the image for `request` and returns the task, which is already running.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        makeImageTask(request, onEvent: nil)
    }

    /// Starts loading the image at `url` and returns the task, which is already running.
    public func imageTask(with url: URL) -> ImageTask {
        imageTask(with: ImageRequest(url: url))
    }

    /// Loads the original bytes for `request` (no decoding, no processing) and the loader's response.
    /// Cancelling the calling Swift task cancels the load.
    public func data(for request: ImageRequest) async throws(ImagePipeline.Error) -> (Data, URLResponse?) {
        let task = DataTask(request: request)
        start(task, onThisThread: !Task.isCancelled)
        return try await withTaskCancellationHandler {
            await task.wait()
        } onCancel: {
            self.cancel(task)
        }.get()
    }

    /// Loads the original bytes at `url` and the loader's response.
    public func data(for url: URL) async throws(ImagePipeline.Error) -> (Data, URLResponse?) {
        try await data(for: ImageRequest(url: url))
    }

    // MARK: Closure API

    /// Loads the image for `request` and calls `completion` exactly once, on
    /// ``Configuration/callbackQueue`` — also when the task is cancelled (with
    /// ``ImagePipeline/Error/cancelled``).
    ///
    /// - Parameters:
    ///   - request: The image to load.
    ///   - progress: Called on the callback queue, never after `completion`: with `nil` and the byte counts as
    ///     data arrives, and with each progressive preview (and the byte counts so far).
    ///   - completion: Called once with the final image or the error.
    @discardableResult
    public func loadImage(
        with request: ImageRequest,
        progress: (@Sendable (_ response: ImageResponse?, _ completed: Int64, _ total: Int64) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Void
    ) -> ImageTask {
        let queue = configuration.callbackQueue
        let isCompleted = LockedValueBox(false)
        let latest = LockedValueBox(ImageTask.Progress(completed: 0, total: 0))
        return makeImageTask(request) { event in
            switch event {
            case .started:
                break  // Sent to the delegate only.
            case let .progress(value):
                guard let progress else { return }
                latest.withLock { $0 = value }
                queue.async {
                    guard !isCompleted.snapshot else { return }
                    progress(nil, value.completed, value.total)
                }
            case let .preview(response):
                guard let progress else { return }
                let value = latest.snapshot
                queue.async {
                    guard !isCompleted.snapshot else { return }
                    progress(response, value.completed, value.total)
                }
            case let .finished(result):
                queue.async {
                    isCompleted.withLock { $0 = true }
                    completion(result)
                }
            }
        }
    }

    /// Loads the image at `url` and calls `completion` exactly once on ``Configuration/callbackQueue``.
    @discardableResult
    public func loadImage(
        with url: URL,
        completion: @escaping @Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Void
    ) -> ImageTask {
        loadImage(with: ImageRequest(url: url), completion: completion)
    }

    /// Loads the original bytes for `request` and calls `completion` exactly once on
    /// ``Configuration/callbackQueue``. Returns a handle that cancels the load (then `completion` gets
    /// ``ImagePipeline/Error/cancelled``).
    ///
    /// - Parameters:
    ///   - request: The image whose original bytes to load.
    ///   - progress: Called on the callback queue as bytes arrive, never after `completion`.
    ///   - completion: Called once with the bytes and the response (`nil` for a cache hit or a local
    ///     resource), or the error.
    @discardableResult
    public func loadData(
        with request: ImageRequest,
        progress: (@Sendable (_ completed: Int64, _ total: Int64) -> Void)? = nil,
        completion: @escaping @Sendable (Result<(data: Data, response: URLResponse?), ImagePipeline.Error>) -> Void
    ) -> any Cancellable {
        let queue = configuration.callbackQueue
        let isCompleted = LockedValueBox(false)
        var onProgress: (@Sendable (Int64, Int64) -> Void)?
        if let progress {
            onProgress = { completed, total in
                queue.async {
                    guard !isCompleted.snapshot else { return }
                    progress(completed, total)
                }
            }
        }
        let task = DataTask(request: request, onProgress: onProgress) { result in
            queue.async {
                isCompleted.withLock { $0 = true }
                completion(result.map { (data: $0.0, response: $0.1) })
            }
        }
        start(task)
        return DataTaskCancellable(pipeline: self, task: task)
    }

    // MARK: Invalidation

    /// Cancels every outstanding task; from now on every request fails with
    /// ``ImagePipeline/Error/pipelineInvalidated``. Idempotent.
    public func invalidate() {
        isInvalidated.withLock { $0 = true }
        core.mailbox.post { [core] in core.invalidate() }
    }

    // MARK: Internals

    /// Makes an image task and posts its start to the graph.
    ///
    /// - Parameter startsOnThisThread: `true` to start it on this thread if the graph is idle (for the async API,
    ///   whose caller waits for the result anyway); `false` to start it later, so that a caller that cancels the
    ///   returned task right away starts no work.
    func makeImageTask(
        _ request: ImageRequest,
        onEvent: (@Sendable (ImageTask.Event) -> Void)?,
        startsOnThisThread: Bool = false
    ) -> ImageTask {
        let task = ImageTask(request: request, core: core, onEvent: onEvent)
        start(task, onThisThread: startsOnThisThread)
        return task
    }

    /// Posts the start of a public task (image or data) to the graph; see
    /// ``makeImageTask(_:onEvent:startsOnThisThread:)``.
    func start<Task: PublicTask>(_ task: Task, onThisThread: Bool = false) {
        if isInvalidated.snapshot {
            task.finish(failingWith: .pipelineInvalidated)
            return
        }
        let start: Mailbox.Job = { [core, self] in
            task.didCreate(core: core)
            core.start(task, pipeline: self)
        }
        if onThisThread {
            OffGraphWorker.keepingFirstDispatch { core.mailbox.post(start) }
        } else {
            core.mailbox.postLater(start)
        }
    }

    func cancel(_ task: DataTask) {
        if task.finish(failingWith: .cancelled) {
            core.statistics.withLock { $0.cancellations += 1 }
            core.mailbox.post { [core] in core.cancel(task) }
        }
    }

    /// Waits until every message posted to the pipeline so far has been handled (for tests).
    func flush() async {
        await core.mailbox.barrier()
    }
}

private struct DataTaskCancellable: Cancellable {
    let pipeline: ImagePipeline
    let task: DataTask

    func cancel() { pipeline.cancel(task) }
}
