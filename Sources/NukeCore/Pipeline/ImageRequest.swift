public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// What to load and how: the image's source, the processors to apply, the priority and options.
///
/// A request is a value. Two requests load the same bytes when their sources match (URL or
/// ``imageID``, cache policy, method, headers and body); they share a decode when the scale and
/// ``thumbnail`` also match; and they share the whole result when the processors and options match too.
///
/// ```swift
/// var request = ImageRequest(url: URL(string: "https://example.com/photo.jpg"), priority: .high)
/// request.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 400)
/// ```
public struct ImageRequest: Sendable, CustomStringConvertible {
    /// Where the data comes from.
    enum Resource: Sendable {
        case url(URL?)
        case urlRequest(URLRequest)
        case closure(id: String, data: @Sendable () async throws -> Data)
        case imageClosure(id: String, image: @Sendable () async throws -> ImageContainer)
    }

    /// The fields that hold references, in one copy-on-write box: copying a request (which the pipeline does
    /// often) retains one object instead of each field.
    ///
    /// The box also keeps the request's memory cache key, computed on first use: every input of the key is
    /// one of its fields, and a box whose key was computed is never mutated again (see `mutableStorage`).
    private final class Storage: @unchecked Sendable {
        // @unchecked: a `Storage` is never mutated once it may be shared: writes go through `mutableStorage`,
        // which copies it unless this request holds the only reference. `cacheKey` is an atomic that any
        // thread may fill once; the fields it is computed from are not mutated after it is set.
        //
        // `cacheKey` is an `Atomic` of an unmanaged reference rather than an `AtomicLazyReference`, whose `load()`
        // is not inlinable and looks up generic metadata on every call — more than the rest of a cache hit.
        var resource: Resource
        var processors: [any ImageProcessing]
        var thumbnail: ThumbnailOptions?
        var userInfo: [UserInfoKey: any Sendable]
        /// The memory cache key of these fields, set once by the first `ImageRequest.imageCacheKey` read and
        /// retained by this storage (released in `deinit`).
        let cacheKey = Atomic<Unmanaged<ImageCacheKey.Storage>?>(nil)

        init(
            resource: Resource, processors: [any ImageProcessing], thumbnail: ThumbnailOptions?,
            userInfo: [UserInfoKey: any Sendable]
        ) {
            self.resource = resource
            self.processors = processors
            self.thumbnail = thumbnail
            self.userInfo = userInfo
        }

        deinit {
            cacheKey.load(ordering: .acquiring)?.release()
        }

        func copy() -> Storage {
            Storage(resource: resource, processors: processors, thumbnail: thumbnail, userInfo: userInfo)
        }

        /// The stored memory cache key, or `nil` if none was computed yet.
        var loadCacheKey: ImageCacheKey.Storage? {
            cacheKey.load(ordering: .acquiring)?.takeUnretainedValue()
        }

        /// Stores `key` unless another thread stored one first; returns the key that is stored.
        func storeCacheKeyIfNil(_ key: ImageCacheKey.Storage) -> ImageCacheKey.Storage {
            let desired = Unmanaged.passRetained(key)
            let (stored, original) = cacheKey.compareExchange(
                expected: nil, desired: desired, ordering: .acquiringAndReleasing)
            guard !stored, let original else { return key }
            desired.release()
            return original.takeUnretainedValue()
        }
    }

    private var storage: Storage

    /// The storage, copied first if another request shares it or its memory cache key has been computed (the
    /// copy starts without a key, so a mutation never leaves a stale one behind).
    private var mutableStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) || storage.loadCacheKey != nil { storage = storage.copy() }
            return storage
        }
    }

    /// The memory cache key (``ImageCacheKey/init(request:)``): computed on the first read, then kept with the
    /// storage, so later reads of this request and of its unmodified copies are one atomic load. Thread-safe:
    /// threads that race to compute it all return the key that was stored first.
    var imageCacheKey: ImageCacheKey {
        if let key = storage.loadCacheKey {
            return ImageCacheKey(storage: key)
        }
        let key = ImageCacheKey.Storage(ImageCacheKey.Fields(request: self))
        return ImageCacheKey(storage: storage.storeCacheKeyIfNil(key))
    }

    var resource: Resource {
        get { storage.resource }
        set { mutableStorage.resource = newValue }
        _modify { yield &mutableStorage.resource }
    }

    /// The processors applied to the decoded image, in order.
    public var processors: [any ImageProcessing] {
        get { storage.processors }
        set { mutableStorage.processors = newValue }
        _modify { yield &mutableStorage.processors }
    }

    /// The priority; the pipeline keeps shared work at the highest priority of the requests waiting for it.
    /// To change the priority of a running task, set ``ImageTask/priority``.
    public var priority: Priority

    /// Options that change how caches and queues are used.
    public var options: Options

    /// Decode directly at a reduced size where the codec can (see ``ThumbnailOptions``).
    public var thumbnail: ThumbnailOptions? {
        get { storage.thumbnail }
        set { mutableStorage.thumbnail = newValue }
        _modify { yield &mutableStorage.thumbnail }
    }

    /// Extra values; ``UserInfoKey/imageIdKey`` and ``UserInfoKey/scaleKey`` are understood by the pipeline.
    public var userInfo: [UserInfoKey: any Sendable] {
        get { storage.userInfo }
        set { mutableStorage.userInfo = newValue }
        _modify { yield &mutableStorage.userInfo }
    }

    /// Creates a request that loads the image at `url`.
    ///
    /// A `nil` URL fails with ``ImagePipeline/Error/imageRequestMissing``.
    public init(
        url: URL?,
        processors: [any ImageProcessing] = [],
        priority: Priority = .normal,
        options: Options = [],
        userInfo: [UserInfoKey: any Sendable]? = nil
    ) {
        self.init(
            resource: .url(url), processors: processors, priority: priority, options: options, userInfo: userInfo)
    }

    /// Creates a request from a `URLRequest`; its method, headers, body, cache policy and timeout are
    /// passed to the data loader.
    public init(
        urlRequest: URLRequest,
        processors: [any ImageProcessing] = [],
        priority: Priority = .normal,
        options: Options = [],
        userInfo: [UserInfoKey: any Sendable]? = nil
    ) {
        self.init(
            resource: .urlRequest(urlRequest), processors: processors, priority: priority, options: options,
            userInfo: userInfo)
    }

    /// Creates a request whose data comes from a closure, for images stored somewhere a data loader can't
    /// reach (a database, an archive, an API that needs a client of its own).
    ///
    /// - Parameters:
    ///   - id: Identifies the data: requests with the same `id` share the load, and caches use it as the key.
    ///   - data: Called at most once per load, in a Swift task of its own (detached: it inherits neither the
    ///     caller's priority nor its task-local values), started on a pipeline worker thread, which runs it there until
    ///     it first suspends — for a caller that awaits the result (`image(for:)`, `data(for:)`) and finds the
    ///     pipeline idle, that worker is the caller's own thread, after the request started and before the caller
    ///     waits: a closure that returns without suspending then costs no thread hop. Never inside a call that
    ///     starts a task without waiting (`imageTask(with:)`, `loadImage(with:)`). Cancelling the load cancels that
    ///     task.
    ///   - processors: Applied in order to the decoded image.
    ///   - priority: The request's priority; see ``priority``.
    ///   - options: How the request uses the caches; see ``Options-swift.struct``.
    ///   - userInfo: Values for the request's ``userInfo``.
    public init(
        id: String,
        data: @escaping @Sendable () async throws -> Data,
        processors: [any ImageProcessing] = [],
        priority: Priority = .normal,
        options: Options = [],
        userInfo: [UserInfoKey: any Sendable]? = nil
    ) {
        self.init(
            resource: .closure(id: id, data: data), processors: processors, priority: priority, options: options,
            userInfo: userInfo)
    }

    /// Creates a request whose image comes from a closure — an image the app already has, or makes itself —
    /// so that it goes through the processors and caches like any other.
    ///
    /// - Parameters:
    ///   - id: Identifies the image: requests with the same `id` share the work, and caches use it as the key.
    ///   - image: Called at most once per load, off the caller's thread; what it throws fails the request with
    ///     ``ImagePipeline/Error/dataLoadingFailed(error:)``. There are no original bytes, so
    ///     ``ImagePipeline/data(for:)-(ImageRequest)`` fails with ``ImagePipeline/Error/imageRequestMissing``.
    ///   - processors: Applied in order to the decoded image.
    ///   - priority: The request's priority; see ``priority``.
    ///   - options: How the request uses the caches; see ``Options-swift.struct``.
    ///   - userInfo: Values for the request's ``userInfo``.
    public init(
        id: String,
        image: @escaping @Sendable () async throws -> ImageContainer,
        processors: [any ImageProcessing] = [],
        priority: Priority = .normal,
        options: Options = [],
        userInfo: [UserInfoKey: any Sendable]? = nil
    ) {
        self.init(
            resource: .imageClosure(id: id, image: image), processors: processors, priority: priority, options: options,
            userInfo: userInfo)
    }

    private init(
        resource: Resource, processors: [any ImageProcessing], priority: Priority, options: Options,
        userInfo: [UserInfoKey: any Sendable]?
    ) {
        // Nuke 13.2's `userInfo[.thumbnailKey]` sets the thumbnail when the request is made.
        let thumbnail = userInfo?[.nuke13Thumbnail] as? ThumbnailOptions
        self.storage = Storage(
            resource: resource, processors: processors, thumbnail: thumbnail, userInfo: userInfo ?? [:])
        self.priority = priority
        self.options = options
    }

    /// The URL request the data loader receives, or `nil` for a closure source or a `nil` URL.
    public var urlRequest: URLRequest? {
        switch resource {
        case let .url(url): url.map { URLRequest(url: $0) }
        case let .urlRequest(request): request
        case .closure, .imageClosure: nil
        }
    }

    /// The image URL, if the request has one.
    public var url: URL? {
        switch resource {
        case let .url(url): url
        case let .urlRequest(request): request.url
        case .closure, .imageClosure: nil
        }
    }

    /// The identity of the image used in cache keys: the ``UserInfoKey/imageIdKey`` override if set,
    /// else the closure source's `id`, else the absolute URL string.
    ///
    /// Set it to let URLs that differ only in, say, a signed query string share cached images (setting stores
    /// it under ``UserInfoKey/imageIdKey``; setting `nil` removes the override).
    public var imageID: String? {
        get {
            // `isEmpty` first: most requests have no user info, and hashing the key costs more than the lookup.
            if !userInfo.isEmpty, let id = userInfo[.imageIdKey] as? String { return id }
            switch resource {
            case let .url(url): return url?.absoluteString
            case let .urlRequest(request): return request.url?.absoluteString
            case let .closure(id, _), let .imageClosure(id, _): return id
            }
        }
        set { userInfo[.imageIdKey] = newValue }
    }

    /// The scale of the decoded image (``UserInfoKey/scaleKey``), `nil` meaning 1.
    public var scale: Float? {
        get {
            guard !userInfo.isEmpty, let value = userInfo[.scaleKey] else { return nil }
            return (value as? Float) ?? (value as? Double).map(Float.init)
        }
        set { userInfo[.scaleKey] = newValue }
    }

    /// `ImageRequest(resource: …, priority: …, processors: […], options: …, userInfo: […])` — Nuke's format. The
    /// resource is the URL (`nil` for none), the `URLRequest`, or `<closure>` for a data or image closure.
    public var description: String {
        let resource =
            switch resource {
            case let .url(url): url?.absoluteString ?? "nil"
            case let .urlRequest(request): "\(request)"
            case .closure, .imageClosure: "<closure>"
            }
        return "ImageRequest(resource: \(resource), priority: \(priority), processors: \(processors), "
            + "options: \(options), userInfo: \(userInfo))"
    }

    /// `true` if the image is processed (processors or a thumbnail) rather than the decoded original.
    var isProcessed: Bool {
        !processors.isEmpty || thumbnail != nil
    }

    /// The same request without processors or thumbnail: what the original data is stored under.
    var withoutProcessing: ImageRequest {
        var copy = self
        copy.processors = []
        copy.thumbnail = nil
        return copy
    }

    /// The same request without its last processor: the dependency of a processed request.
    ///
    /// When the removed processor is a lone leading ``ImageProcessors/Resize`` and the request has no thumbnail,
    /// the resize becomes the decode's thumbnail, so codecs that scale while decoding do the resize's work (the
    /// decode then lands exactly on the resize's size and the resize has nothing left to do).
    var withoutLastProcessor: ImageRequest {
        var copy = self
        let removed = copy.processors.removeLast()
        if copy.processors.isEmpty, copy.thumbnail == nil, let resize = removed as? ImageProcessors.Resize,
            let hint = resize.decodingHint
        {
            copy.thumbnail = hint
        }
        return copy
    }
}

extension ImageRequest: ExpressibleByStringLiteral {
    /// Creates a request from a URL string; an invalid string yields a request that fails with
    /// ``ImagePipeline/Error/imageRequestMissing``.
    public init(stringLiteral value: String) {
        self.init(url: URL(string: value))
    }
}

extension ImageRequest {
    /// A key for ``ImageRequest/userInfo``.
    public struct UserInfoKey: Hashable, ExpressibleByStringLiteral, Sendable {
        /// The key's name.
        public let rawValue: String

        /// Creates a key from its name.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public init(stringLiteral value: String) { self.rawValue = value }

        /// Overrides the image identity used in cache keys (a `String`). See ``ImageRequest/imageID``.
        public static let imageIdKey: UserInfoKey = "github.com/kean/nuke/imageId"

        /// The scale of the decoded image (a `Float`). Defaults to 1.
        public static let scaleKey: UserInfoKey = "github.com/kean/nuke/scale"
    }

    /// Options that change how the request uses the caches.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16

        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Don't read images from the memory cache.
        public static let disableMemoryCacheReads = Options(rawValue: 1 << 0)
        /// Don't store loaded images in the memory cache.
        public static let disableMemoryCacheWrites = Options(rawValue: 1 << 1)
        /// Neither read from nor write to the memory cache.
        public static let disableMemoryCache: Options = [.disableMemoryCacheReads, .disableMemoryCacheWrites]
        /// Don't read data from the disk cache.
        public static let disableDiskCacheReads = Options(rawValue: 1 << 2)
        /// Don't store data in the disk cache.
        public static let disableDiskCacheWrites = Options(rawValue: 1 << 3)
        /// Neither read from nor write to the disk cache.
        public static let disableDiskCache: Options = [.disableDiskCacheReads, .disableDiskCacheWrites]
        /// Ignore images and data in the caches and load from the source; results are still stored.
        public static let reloadIgnoringCachedData = Options(rawValue: 1 << 4)
        /// Use only cached images and data: never load. Fails with
        /// ``ImagePipeline/Error/dataMissingInCache`` when nothing is cached.
        public static let returnCacheDataDontLoad = Options(rawValue: 1 << 5)
        /// Start loading at once, bypassing ``ImagePipeline/Configuration/dataLoadingQueue`` and the rate limiter.
        public static let skipDataLoadingQueue = Options(rawValue: 1 << 6)
        /// Kept so that code written for Nuke compiles. Decoders here always produce fully decoded pixels, so
        /// there is no separate decompression stage to skip and the option changes nothing.
        public static let skipDecompression = Options(rawValue: 1 << 7)

    }
}
