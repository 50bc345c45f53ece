import Foundation

/// The pipeline's task graph: the pools of shared tasks and the subscriptions of the public tasks.
///
/// The graph's state (the pools, ``activeTasks`` and every ``PipelineTask``) is touched only by jobs of
/// ``mailbox``, which run one at a time in the order they were posted; everything from outside arrives as such a
/// job. The `let` properties are safe from any thread.
final class PipelineCore: @unchecked Sendable {
    // @unchecked: the mutable state is confined to the mailbox's jobs (see above).
    let configuration: ImagePipeline.Configuration
    let mailbox = Mailbox()
    let delegate: any ImagePipeline.Delegate
    /// `false` for the default delegate, whose every answer is the configuration's.
    let hasCustomDelegate: Bool
    let resumableData: ResumableDataStorage
    let pendingEncodes = WorkCounter()
    let decodingBacklog: ByteBudget
    let statistics = LockedValueBox(ImagePipeline.Statistics())
    private let pipelineReference = LockedValueBox(WeakPipeline())

    private let loadImageTasks: TaskPool<LoadKey, TaskLoadImage>
    private let originalImageTasks: TaskPool<ImageKey, TaskFetchOriginalImage>
    private let originalDataTasks: TaskPool<DataKey, TaskFetchOriginalData>
    let rateLimiter: RateLimiter?
    /// The loads handed over to a loader that admits them itself (``PrioritizedDataLoading``) and not finished: at
    /// most ``handOverLimit``; the rest wait here, in priority order. The decoding backlog holds back hand-overs, not
    /// the loader's admissions, so this is also the most bodies a burst can bring beyond the backlog's limit — each
    /// of which may become a decoded image waiting for its caller. 32 keeps the loader's queue fed between the
    /// graph's hand-overs (16 measured no faster than the data loading queue; 64 a little faster, at 7–11 MB more
    /// peak memory) and a burst of 5,000 image requests within its memory goal (BENCHMARKS.md).
    let handOverQueue = TaskQueue(maxConcurrentOperationCount: PipelineCore.handOverLimit)
    static let handOverLimit = 32
    /// Whether the configuration's loader admits loads itself (read once: the cast isn't free).
    private let isConfiguredLoaderAdmitting: Bool

    /// A public task's hold on the graph.
    private struct ActiveTask {
        var subscription: TaskSubscription?
        /// Keeps the pipeline (and so the delegate's per-request choices) alive while the task runs.
        let pipeline: ImagePipeline
        let task: any AnyPublicTask
    }

    private var activeTasks: [ObjectIdentifier: ActiveTask] = [:]
    /// The originals being revalidated in the background (``revalidateInBackground(_:metadata:body:)``).
    private var revalidations: Set<DataKey> = []
    private var isInvalidated = false

    init(configuration: ImagePipeline.Configuration, delegate: (any ImagePipeline.Delegate)?) {
        self.configuration = configuration
        self.delegate = delegate ?? DefaultPipelineDelegate()
        self.hasCustomDelegate = !(self.delegate is DefaultPipelineDelegate)
        self.resumableData = ResumableDataStorage(costLimit: configuration.resumableDataCostLimit)
        self.decodingBacklog = ByteBudget(limit: configuration.decodingBacklogLimit)
        self.isConfiguredLoaderAdmitting = configuration.dataLoader is any PrioritizedDataLoading
        let coalescing = configuration.isTaskCoalescingEnabled
        let statistics = self.statistics
        let onJoin: @Sendable () -> Void = { statistics.withLock { $0.coalescedJoins += 1 } }
        loadImageTasks = TaskPool(isCoalescingEnabled: coalescing, onJoin: onJoin)
        originalImageTasks = TaskPool(isCoalescingEnabled: coalescing, onJoin: onJoin)
        originalDataTasks = TaskPool(isCoalescingEnabled: coalescing, onJoin: onJoin)
        let mailbox = self.mailbox
        rateLimiter =
            configuration.isRateLimiterEnabled
            ? RateLimiter(
                now: configuration.rateLimiterClock,
                schedule: { delay, body in
                    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { mailbox.post(body) }
                }) : nil
    }

    /// The pipeline that owns the core; `nil` once it is gone (then delegate calls are skipped).
    var pipeline: ImagePipeline? {
        get { pipelineReference.withLock { $0.value } }
        set { pipelineReference.withLock { $0.value = newValue } }
    }

    // MARK: Public tasks

    /// Starts a public task (unless it finished, e.g. was cancelled, before it got here): subscribes it to its graph
    /// task and routes the events to it.
    func start<Task: PublicTask>(_ task: Task, pipeline: ImagePipeline) {
        guard !task.isFinished else { return }
        guard !isInvalidated else { return task.fail(.pipelineInvalidated, core: self) }
        task.didStart(core: self)
        guard let graphTask = task.graphTask(in: self) else { return }  // Finished: a memory cache hit.
        let id = ObjectIdentifier(task)
        activeTasks[id] = ActiveTask(subscription: nil, pipeline: pipeline, task: task)
        let subscription = graphTask.subscribe(priority: task.priority, owner: .request(task.request)) {
            [self] event in
            switch event {
            case .value(_, isCompleted: true), .error: self.activeTasks[id] = nil
            case .value, .progress: break
            }
            task.receive(event, core: self)
        }
        if activeTasks[id] != nil {
            // Replaced, not mutated in place: a nested in-place update of the dictionary's value allocates.
            activeTasks[id] = ActiveTask(subscription: subscription, pipeline: pipeline, task: task)
        } else {
            subscription?.unsubscribe()  // Finished while subscribing.
        }
    }

    /// Releases the graph work of a cancelled public task (other tasks may still need it) and reports the cancel.
    func cancel(_ task: some PublicTask) {
        activeTasks.removeValue(forKey: ObjectIdentifier(task))?.subscription?.unsubscribe()
        task.didFail(.cancelled, core: self)
    }

    /// Applies the latest priority of a public task to its graph work.
    func updatePriority(of task: some PublicTask) {
        activeTasks[ObjectIdentifier(task)]?.subscription?.setPriority(task.priority)
    }

    /// Cancels every task; new tasks fail with ``ImagePipeline/Error/pipelineInvalidated``.
    func invalidate() {
        isInvalidated = true
        let tasks = activeTasks.values
        activeTasks.removeAll()
        for active in tasks {
            active.task.fail(.cancelled, core: self)
            active.subscription?.unsubscribe()
        }
    }

    // MARK: The task graph

    /// `true` when an image task for `request` subscribes to the decode of the original itself, with no
    /// ``TaskLoadImage`` in between: the request has no processors and no thumbnail, and no encoded copy of the
    /// image is to be stored (``ImagePipeline/DataCachePolicy/storeEncodedImages`` with a disk cache). For such a
    /// request ``TaskLoadImage`` would only read and write the memory cache, which the image task then does.
    func decodesDirectly(_ request: ImageRequest) -> Bool {
        !request.isProcessed && (configuration.dataCachePolicy != .storeEncodedImages || !mayStoreData)
    }

    /// The shared result of `request`; `key` is `LoadKey(request)` when the caller has it already.
    func makeTaskLoadImage(for request: ImageRequest, key: LoadKey? = nil) -> TaskLoadImage {
        let key = key ?? LoadKey(request)
        return loadImageTasks.task(for: key, make: { TaskLoadImage(core: self, request: request, key: key) })
    }

    /// The shared decode of `request`'s original; `key` is `ImageKey(request)` when the caller has it already.
    func makeTaskFetchOriginalImage(for request: ImageRequest, key: ImageKey? = nil) -> TaskFetchOriginalImage {
        let key = key ?? ImageKey(request)
        return originalImageTasks.task(
            for: key, make: { TaskFetchOriginalImage(core: self, request: request, key: key) })
    }

    /// The shared load of `request`'s original bytes; `key` is `DataKey(request)` when the caller has it already.
    func makeTaskFetchOriginalData(for request: ImageRequest, key: DataKey? = nil) -> TaskFetchOriginalData {
        originalDataTasks.task(
            for: key ?? DataKey(request), make: { TaskFetchOriginalData(core: self, request: request) })
    }

    /// Revalidates a stale entry that was served (`stale-while-revalidate`) in the background, at low priority: one
    /// conditional request per entry at a time, however many requests are served the stale entry meanwhile. Its
    /// result goes to the disk cache only; when it brings new bytes, the memory cache's image for `request` is
    /// removed so the next request decodes them.
    func revalidateInBackground(_ request: ImageRequest, metadata: HTTPCacheMetadata, body: Data) {
        let original = request.withoutProcessing
        let key = DataKey(original)
        guard !isInvalidated, revalidations.insert(key).inserted else { return }
        let task = TaskFetchOriginalData(core: self, request: original, revalidating: metadata, body: body)
        _ = task.subscribe(priority: .low, owner: .request(original)) { [self] event in
            switch event {
            case let .value(response, isCompleted: true):
                response.ticket?.release()
                if response.cacheType == nil { imageCache(for: request)?[makeImageCacheKey(for: request)] = nil }
                revalidations.remove(key)
            case .error:
                revalidations.remove(key)
            case .value, .progress:
                break
            }
        }
    }

    // MARK: Introspection (tests)

    /// The number of live tasks in each pool and of public tasks with work in the graph, read in a mailbox job
    /// after every job posted before.
    var liveTaskCounts: (loadImage: Int, originalImage: Int, originalData: Int, active: Int) {
        get async {
            await withCheckedContinuation { continuation in
                mailbox.post { [self] in
                    continuation.resume(
                        returning: (
                            loadImageTasks.count, originalImageTasks.count, originalDataTasks.count, activeTasks.count
                        ))
                }
            }
        }
    }
}

/// A weak reference to the pipeline that owns a core.
struct WeakPipeline {
    weak var value: ImagePipeline?
}

// MARK: Per-request choices and caches

/// Per-request choices (through the delegate) and the cache lookups every task shares. Safe from any thread.
///
/// Without a delegate of the app's, every choice is the configuration's, read directly: no weak load of the
/// pipeline and no delegate call on hot paths such as a memory cache lookup.
extension PipelineCore {
    func dataLoader(for request: ImageRequest) -> any DataLoading {
        guard hasCustomDelegate, let pipeline else { return configuration.dataLoader }
        return delegate.dataLoader(for: request, pipeline: pipeline)
    }

    /// Whether the loader of `request` admits loads per host itself (``PrioritizedDataLoading``).
    func admitsLoads(for request: ImageRequest) -> Bool {
        guard hasCustomDelegate, let pipeline else { return isConfiguredLoaderAdmitting }
        return delegate.dataLoader(for: request, pipeline: pipeline) is any PrioritizedDataLoading
    }

    func imageCache(for request: ImageRequest) -> (any ImageCaching)? {
        guard hasCustomDelegate, let pipeline else { return configuration.imageCache }
        return delegate.imageCache(for: request, pipeline: pipeline)
    }

    /// Whether any request may have a disk cache: one is configured, or a custom delegate may name one per request.
    var mayStoreData: Bool {
        hasCustomDelegate || configuration.dataCache != nil
    }

    func dataCache(for request: ImageRequest) -> (any DataCaching)? {
        guard hasCustomDelegate, let pipeline else { return configuration.dataCache }
        return delegate.dataCache(for: request, pipeline: pipeline)
    }

    /// Where ``decoder(for:)`` looks: what a "no decoder" error tells the user.
    var decoderLookup: ImageDecoderLookup {
        if hasCustomDelegate { return .delegate }
        return configuration.asksSharedDecoderRegistry ? .sharedRegistry : .configuration
    }

    func decoder(for context: ImageDecodingContext) -> (any ImageDecoding)? {
        guard hasCustomDelegate, let pipeline else { return configuration.makeImageDecoder(context) }
        return delegate.imageDecoder(for: context, pipeline: pipeline)
    }

    func encoder(for context: ImageEncodingContext) -> any ImageEncoding {
        guard hasCustomDelegate, let pipeline else { return configuration.makeImageEncoder(context) }
        return delegate.imageEncoder(for: context, pipeline: pipeline)
    }

    /// The delegate's post-decode hook (``ImagePipeline/Delegate/decompress(response:request:pipeline:)``),
    /// skipped for the default delegate, whose `decompress` returns the response unchanged.
    func decompressIfNeeded(_ response: ImageResponse) -> ImageResponse {
        guard hasCustomDelegate, let pipeline,
            delegate.shouldDecompress(response: response, for: response.request, pipeline: pipeline)
        else { return response }
        return delegate.decompress(response: response, request: response.request, pipeline: pipeline)
    }

    func previewPolicy(for context: ImageDecodingContext) -> ImagePipeline.PreviewPolicy {
        guard hasCustomDelegate, let pipeline else { return .default(for: context.data) }
        return delegate.previewPolicy(for: context, pipeline: pipeline)
    }

    /// The disk cache key: the delegate's, or the image identity + processor identifiers + thumbnail.
    func makeDataCacheKey(for request: ImageRequest) -> String {
        if hasCustomDelegate, let pipeline, let key = delegate.cacheKey(for: request, pipeline: pipeline) {
            return key
        }
        var key = request.imageID ?? ""
        for processor in request.processors {
            key += processor.identifier
        }
        if let thumbnail = request.thumbnail {
            key += thumbnail.identifier
        }
        return key
    }

    // MARK: Memory cache

    /// The memory cache key: the delegate's custom key (``ImageCacheKey/init(key:)``), or the request's.
    func makeImageCacheKey(for request: ImageRequest) -> ImageCacheKey {
        if hasCustomDelegate, let pipeline, let key = delegate.cacheKey(for: request, pipeline: pipeline) {
            return ImageCacheKey(key: key)
        }
        return ImageCacheKey(request: request)
    }

    func cachedImage(for request: ImageRequest) -> ImageContainer? {
        guard !request.options.contains(.disableMemoryCacheReads),
            !request.options.contains(.reloadIgnoringCachedData),
            let cache = imageCache(for: request)
        else { return nil }
        return cache[makeImageCacheKey(for: request)]
    }

    /// A memory cache hit for a task starting on `request`, as the response it sends (counted as a hit unless it is
    /// a stored preview, after which the task loads the image).
    func cachedResponse(for request: ImageRequest) -> ImageResponse? {
        guard let container = cachedImage(for: request) else { return nil }
        if !container.isPreview { statistics.withLock { $0.memoryCacheHits += 1 } }
        return ImageResponse(container: container, request: request, cacheType: .memory)
    }

    /// Stores what a task made for `request` in its memory cache: the image, or a preview when the configuration
    /// keeps previews (``ImagePipeline/Configuration/isStoringPreviewsInMemoryCache``).
    func storeInMemoryCache(_ container: ImageContainer, for request: ImageRequest, isCompleted: Bool) {
        if isCompleted {
            storeImage(container, for: request)
        } else if configuration.isStoringPreviewsInMemoryCache {
            storePreview(container, for: request)
        }
    }

    /// Stores an image (or, from the pipeline's own tasks, a preview) in the request's memory cache.
    func storeImage(_ container: ImageContainer, for request: ImageRequest) {
        guard !request.options.contains(.disableMemoryCacheWrites), let cache = imageCache(for: request)
        else { return }
        cache[makeImageCacheKey(for: request)] = container
    }

    /// Stores a progressive preview, unless the memory cache already holds a final image for the request (a
    /// reload's previews never replace a good image).
    func storePreview(_ container: ImageContainer, for request: ImageRequest) {
        guard !request.options.contains(.disableMemoryCacheWrites), let cache = imageCache(for: request) else {
            return
        }
        let key = makeImageCacheKey(for: request)
        if let existing = cache[key], !existing.isPreview { return }
        cache[key] = container
    }

    // MARK: Disk cache

    /// Writes data the pipeline made to the disk cache, through the delegate's
    /// ``ImagePipeline/Delegate/willCache(data:image:for:pipeline:completion:)`` (skipped for the default
    /// delegate, which stores the data as is).
    ///
    /// With `metadata` (the pipeline follows HTTP headers and the data came from an HTTP response), the bytes are
    /// stored behind the HTTP metadata header (``HTTPCacheEntry``): as an original, or, with `isDerived`, as an
    /// encoded image made from that original. The delegate sees the bytes without it.
    func storeData(
        _ data: Data, image: ImageContainer?, for request: ImageRequest, key: String, in cache: any DataCaching,
        metadata: HTTPCacheMetadata? = nil, isDerived: Bool = false
    ) {
        let entry: @Sendable (Data) -> Data = { data in
            guard let metadata else { return data }
            return (isDerived ? HTTPCacheEntry.derived(metadata, body: data) : .original(metadata, body: data))
                .encoded()
        }
        guard hasCustomDelegate, let pipeline else {
            return cache.storeData(entry(data), for: key)
        }
        delegate.willCache(data: data, image: image, for: request, pipeline: pipeline) { data in
            if let data { cache.storeData(entry(data), for: key) }
        }
    }

    /// Whether disk cache entries follow the HTTP caching headers (``ImagePipeline/HTTPCachePolicy``).
    var followsHTTPHeaders: Bool {
        configuration.httpCachePolicy == .followHeaders
    }

    /// The disk cache to read for `request`, unless its options forbid reading.
    func readableDataCache(for request: ImageRequest) -> (any DataCaching)? {
        guard !request.options.contains(.disableDiskCacheReads),
            !request.options.contains(.reloadIgnoringCachedData)
        else { return nil }
        return dataCache(for: request)
    }
}

extension ImageRequest {
    /// `true` for `file:` and `data:` URLs, whose data the pipeline never stores in the disk cache.
    var isLocalResource: Bool {
        LocalDataLoader.canLoad(url)
    }
}
