public import Foundation

/// Loads images ahead of need — the next screen of a feed, the thumbnails of a page about to be rendered —
/// at low priority, so they are ready (in memory or on disk) when asked for.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(pipeline: pipeline)
/// prefetcher.startPrefetching(with: upcomingURLs)
/// // the user scrolled the other way
/// prefetcher.stopPrefetching(with: upcomingURLs)
/// ```
///
/// Equivalent requests are prefetched once; images already in the memory cache are skipped (with the
/// `.memoryCache` destination); at most ``maxConcurrentRequestCount`` prefetches run at once. Prefetches share
/// work with regular requests like any other request. Every member is safe to call from any thread;
/// deinitialising the prefetcher cancels everything it started.
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images go.
    public enum Destination: Sendable, Hashable {
        /// Load and decode (and process) the image, and keep it in the memory cache.
        case memoryCache
        /// Load the data only, for the disk cache (no decoding). Needs a ``ImagePipeline/Configuration/dataCache``
        /// and a policy that stores original data.
        case diskCache
    }

    /// The pipeline that loads the images.
    public let pipeline: ImagePipeline
    /// Where prefetched images go.
    public let destination: Destination
    /// The largest number of prefetches that run at once.
    public let maxConcurrentRequestCount: Int

    private let queue: TaskQueue
    private let state = LockedValueBox(State())

    private struct State {
        var entries: [PrefetchKey: Entry] = [:]
        var priority = ImageRequest.Priority.low
        var didComplete: (@Sendable () -> Void)?
        /// The ``startPrefetching(with:)-([ImageRequest])`` calls still adding requests: until they return, the
        /// prefetches they already added finishing doesn't mean everything finished.
        var startsInProgress = 0
    }

    /// One prefetch: its slot in the prefetcher's queue and, once started, the pipeline task.
    private final class Entry: @unchecked Sendable {
        // @unchecked: every property is read and written only while the prefetcher's state lock is held.
        var operation: TaskQueue.Operation?
        var imageTask: ImageTask?
        var dataTask: DataTask?
    }

    /// Creates a prefetcher.
    ///
    /// - Parameters:
    ///   - pipeline: The pipeline to load with.
    ///   - destination: Memory (decoded images) or disk (data only).
    ///   - maxConcurrentRequestCount: The largest number of prefetches at once (default 2).
    public init(
        pipeline: ImagePipeline = ImagePipeline.shared,
        destination: Destination = .memoryCache,
        maxConcurrentRequestCount: Int = 2
    ) {
        self.pipeline = pipeline
        self.destination = destination
        self.maxConcurrentRequestCount = max(1, maxConcurrentRequestCount)
        self.queue = TaskQueue(maxConcurrentOperationCount: max(1, maxConcurrentRequestCount))
    }

    deinit {
        stopPrefetching()
    }

    /// The priority of prefetches (default `.low`); a change reaches queued and running prefetches.
    public var priority: ImageRequest.Priority {
        get { state.withLock { $0.priority } }
        set {
            let work = state.withLock { state in
                state.priority = newValue
                return state.entries.values.map { ($0.operation, $0.imageTask, $0.dataTask) }
            }
            for (operation, imageTask, dataTask) in work {
                operation?.priority = newValue
                imageTask?.priority = newValue
                if let dataTask {
                    dataTask.priority = newValue
                    pipeline.core.mailbox.post { [core = pipeline.core] in core.updatePriority(of: dataTask) }
                }
            }
        }
    }

    /// While `true`, no new prefetch starts; running ones continue.
    public var isPaused: Bool {
        get { queue.isSuspended }
        set { queue.isSuspended = newValue }
    }

    /// Called (on an arbitrary thread) each time the last outstanding prefetch finishes, and at the end of a
    /// ``startPrefetching(with:)-([ImageRequest])`` call that leaves nothing outstanding (every image was
    /// already in the memory cache, or every prefetch it added finished while it was still adding others), so a
    /// caller waiting for it is never left waiting and is told once per batch.
    public var didComplete: (@Sendable () -> Void)? {
        get { state.withLock { $0.didComplete } }
        set { state.withLock { $0.didComplete = newValue } }
    }

    /// Prefetches the images at `urls`.
    public func startPrefetching(with urls: [URL]) {
        startPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Prefetches the images for `requests` (at the prefetcher's ``priority``). Requests already being
    /// prefetched, and with the memory destination images already in the memory cache, are skipped.
    public func startPrefetching(with requests: [ImageRequest]) {
        state.withLock { $0.startsInProgress += 1 }
        for var request in requests {
            let key = makeKey(for: request)
            if destination == .memoryCache, let cached = pipeline.cache[request], !cached.isPreview {
                continue
            }
            let entry = Entry()
            let priority = state.withLock { state -> ImageRequest.Priority? in
                guard state.entries[key] == nil else { return nil }
                state.entries[key] = entry
                return state.priority
            }
            guard let priority else { continue }
            request.priority = priority
            let request = request
            let operation = queue.add(priority: priority) { [weak self] operation in
                self?.start(request, key: key, entry: entry, operation: operation)
            }
            let isStopped = state.withLock { state in
                entry.operation = operation
                return state.entries[key] !== entry
            }
            if isStopped { operation.cancel() }
        }
        // Prefetches that finished while this call was adding others didn't report; if nothing is outstanding now,
        // report here (also when everything was already cached). Otherwise the last one to finish reports.
        let didComplete = state.withLock { state -> (@Sendable () -> Void)? in
            state.startsInProgress -= 1
            return state.entries.isEmpty && state.startsInProgress == 0 ? state.didComplete : nil
        }
        didComplete?()
    }

    private func start(_ request: ImageRequest, key: PrefetchKey, entry: Entry, operation: TaskQueue.Operation) {
        let finish: @Sendable () -> Void = { [weak self] in
            operation.finish()
            self?.didFinish(key, entry: entry)
        }
        switch destination {
        case .memoryCache:
            let task = pipeline.makeImageTask(request) { event in
                if case .finished = event { finish() }
            }
            let isStopped = state.withLock { state in
                entry.imageTask = task
                return state.entries[key] !== entry
            }
            if isStopped { task.cancel() }
        case .diskCache:
            let task = DataTask(request: request, onFinish: { _ in finish() })
            let isStopped = state.withLock { state in
                entry.dataTask = task
                return state.entries[key] !== entry
            }
            pipeline.start(task)
            if isStopped { pipeline.cancel(task) }
        }
    }

    private func didFinish(_ key: PrefetchKey, entry: Entry) {
        let didComplete = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.entries[key] === entry else { return nil }
            state.entries[key] = nil
            return state.entries.isEmpty && state.startsInProgress == 0 ? state.didComplete : nil
        }
        didComplete?()
    }

    /// Stops prefetching the images at `urls`.
    public func stopPrefetching(with urls: [URL]) {
        stopPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Stops prefetching the images for `requests`; work that other requests share goes on.
    public func stopPrefetching(with requests: [ImageRequest]) {
        let keys = requests.map(makeKey)
        let entries = state.withLock { state in keys.compactMap { state.entries.removeValue(forKey: $0) } }
        cancel(entries)
    }

    /// Stops every prefetch.
    public func stopPrefetching() {
        let entries = state.withLock { state -> [Entry] in
            defer { state.entries.removeAll() }
            return Array(state.entries.values)
        }
        cancel(entries)
    }

    /// The number of prefetches queued or running.
    public var pendingCount: Int { state.withLock { $0.entries.count } }

    private func cancel(_ entries: [Entry]) {
        let work = state.withLock { _ in entries.map { ($0.operation, $0.imageTask, $0.dataTask) } }
        for (operation, imageTask, dataTask) in work {
            operation?.cancel()
            imageTask?.cancel()
            if let dataTask { pipeline.cancel(dataTask) }
        }
    }

    private func makeKey(for request: ImageRequest) -> PrefetchKey {
        switch destination {
        case .memoryCache: .image(ImageCacheKey(request: request))
        case .diskCache: .data(DataKey(request))
        }
    }
}

/// What makes two prefetches equivalent.
private enum PrefetchKey: Hashable, Sendable {
    case image(ImageCacheKey)
    case data(DataKey)
}
