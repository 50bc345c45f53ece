public import Dispatch
public import Foundation

extension ImagePipeline {
    /// Everything a pipeline is made of: its loader, caches, codecs, queues and policies.
    ///
    /// ```swift
    /// let pipeline = ImagePipeline {
    ///     $0.dataLoader = CurlDataLoader()
    ///     $0.imageCache = ImageCache(costLimit: 256 << 20)
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// Loads the bytes of `http(s)` and other non-local URLs. The default, ``MissingDataLoader``, fails with
        /// an error that says which plugin to add. `file:` and `data:` URLs are read by the pipeline itself.
        public var dataLoader: any DataLoading

        /// The memory cache of decoded, processed images; `nil` disables it. Default: ``ImageCache/shared``.
        public var imageCache: (any ImageCaching)?

        /// Returns the decoder for an image; the default asks ``ImageDecoderRegistry/shared``.
        /// Returning `nil` fails the request with ``ImagePipeline/Error/decoderNotRegistered(context:)``, whose
        /// description names this closure once it is set (and ``ImageDecoderRegistry/shared`` until then).
        public var makeImageDecoder: @Sendable (ImageDecodingContext) -> (any ImageDecoding)? {
            didSet { asksSharedDecoderRegistry = false }
        }

        /// `true` while ``makeImageDecoder`` asks ``ImageDecoderRegistry/shared`` first: the default lookup, or one
        /// of this package's configurations that does (they set it after ``makeImageDecoder``, whose `didSet`
        /// clears it). A "no decoder" error then tells the user to register there.
        package var asksSharedDecoderRegistry = true

        /// The disk cache of original data and encoded images; `nil` (the default) disables it. Plug in
        /// `DataCache` from the CacheDisk product or any ``DataCaching``.
        public var dataCache: (any DataCaching)?

        /// What goes into ``dataCache``; see ``ImagePipeline/DataCachePolicy``. Default `.storeOriginalData`.
        public var dataCachePolicy = ImagePipeline.DataCachePolicy.storeOriginalData

        /// Whether the disk cache follows the HTTP caching headers of responses or ignores them; see
        /// ``ImagePipeline/HTTPCachePolicy``. Default ``ImagePipeline/HTTPCachePolicy/ignoreHeaders``, Nuke's
        /// behaviour: what the disk cache holds is served until the cache evicts it, with no request, whatever the
        /// server said. It keeps working offline, downloads each URL once over time, and lets a fleet's shared cache
        /// answer without asking the origin. Choose ``ImagePipeline/HTTPCachePolicy/followHeaders`` (a private HTTP
        /// cache: freshness, revalidation with `304`, `no-store`, `stale-while-revalidate`, `stale-if-error`) when
        /// images change under the same URL and the server's headers say how long they stay valid, or when its
        /// `no-store` must be honoured; it applies to every `http(s)` load of a pipeline with a ``dataCache``. With
        /// either policy, per request, `reloadIgnoringCachedData` skips the cache and `returnCacheDataDontLoad` serves
        /// what is stored, fresh or not.
        public var httpCachePolicy = ImagePipeline.HTTPCachePolicy.ignoreHeaders

        /// Offline use: when a load that would revalidate a stale disk cache entry fails (a network error, or a
        /// status that isn't a 4xx), serve the stale entry anyway — past its `stale-if-error` window and even with
        /// `must-revalidate` — marked ``ImageResponse/isStale``. Default `false`: only `stale-if-error` allows it.
        public var isServingStaleDataOnFailure = false

        /// Returns the encoder for images stored in the disk cache as encoded images (policies
        /// `.storeEncodedImages`, `.storeAll`, `.automatic`). An encoder that returns `nil` stores nothing. The
        /// core ships no codec, so the default encodes nothing; codec plugins provide encoders
        /// (`ImageEncoders.PNG()`, …), and the `Nuke` product's set-up uses `ImageEncoders.Default`.
        public var makeImageEncoder: @Sendable (ImageEncodingContext) -> any ImageEncoding = { _ in NoImageEncoder() }

        /// Whether equivalent requests share work (download, decode, processing). Default `true`.
        /// With `false` every request does all its own work.
        public var isTaskCoalescingEnabled = true

        /// The largest response body the pipeline accepts, in bytes; `nil` means no limit (the default).
        /// Larger downloads are cancelled and fail with
        /// ``ImagePipeline/Error/dataDownloadExceededMaximumSize``, whether or not the server announced
        /// the length.
        public var maximumResponseDataSize: Int?

        /// Whether new loads are paced by a token bucket (bursts of 25, then 80 a second), so that a storm of
        /// requests that are cancelled right away (a fast scroll through a feed) doesn't start and abort hundreds of
        /// transfers. Default `false` — unlike Nuke on Apple platforms — because servers and tools, this library's
        /// main users, start batches they want loaded as fast as the data loading queue allows; turn it on for
        /// feed-like front ends. Local (`file:`, `data:`) and closure sources are never paced. Loads waiting for
        /// the bucket start in arrival order; their priority applies from the data loading queue on.
        public var isRateLimiterEnabled = false

        /// Whether partially downloaded data is decoded into previews (``ImageTask/Event/preview(_:)``) by
        /// decoders that support it. Default `false`.
        public var isProgressiveDecodingEnabled = false

        /// The minimum time between two previews of one image, in seconds. Default 0.5.
        public var progressiveDecodingInterval: Double = 0.5

        /// Whether a failed or cancelled download keeps its bytes to resume with an HTTP range request when the
        /// server supports it (`Accept-Ranges: bytes` and an `ETag` or `Last-Modified` validator). Default `true`.
        /// At most ``resumableDataCostLimit`` bytes are kept.
        public var isResumableDataEnabled = true

        /// The most bytes of interrupted downloads kept for resuming, across all URLs (default 32 MB).
        public var resumableDataCostLimit = 32 * 1024 * 1024

        /// The most bytes the pipeline holds between the network and the app before new loads wait (default
        /// 16 MB): downloaded data, from its first received byte until its decode ends, and decoded or processed
        /// images, until the app receives them. While more is held, new loads keep their slot in the data loading
        /// queue without starting, so a burst of thousands of requests can't fill memory with data that decoders
        /// haven't reached yet, or with images that callers haven't taken. A single larger image still loads.
        ///
        /// 16 MB is ≈ 64 bodies of 250 KB ahead of the decoders, far more than they need to stay busy; a larger
        /// limit buys no throughput and raises the peak memory of a burst by about as much (`nuke-bench memory`).
        public var decodingBacklogLimit = 16 * 1024 * 1024

        /// The queue the closure API (``ImagePipeline/loadImage(with:progress:completion:)``) calls back on.
        /// The default is a serial queue owned by the configuration: Linux programs often run no main loop, so
        /// `DispatchQueue.main` is never assumed. Use a serial queue: the promise that no progress callback
        /// comes after the completion holds only if callbacks run one after another.
        public var callbackQueue: DispatchQueue

        /// Limits concurrent data loads (default 6).
        public var dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 6)

        /// Limits concurrent decodes (default: the number of active cores).
        public var imageDecodingQueue = TaskQueue(maxConcurrentOperationCount: Configuration.coreCount)

        /// Limits concurrent processing (default: the number of active cores).
        public var imageProcessingQueue = TaskQueue(maxConcurrentOperationCount: Configuration.coreCount)

        /// Limits concurrent encodes for the disk cache (default: the number of active cores).
        public var imageEncodingQueue = TaskQueue(maxConcurrentOperationCount: Configuration.coreCount)

        /// Limits concurrent disk cache reads (default 2).
        public var dataCachingQueue = TaskQueue(maxConcurrentOperationCount: 2)

        /// Converts decoded images from their ``PlatformImage/colorProfile`` to sRGB (see
        /// ``colorProfilePolicy``); `nil`, NukeCore's default, leaves every image's pixels and profile as decoded.
        /// The `Nuke` product's configurations set `LCMSColorConverter` from its `ColorLCMS` product.
        public var colorConverter: (any ColorConverting)?

        /// Whether decoded images are converted to sRGB with ``colorConverter`` or keep their own colour space.
        /// Default `.convertToSRGB`, which has no effect while ``colorConverter`` is `nil`.
        public var colorProfilePolicy = ImagePipeline.ColorProfilePolicy.convertToSRGB

        /// The converter the decoding step uses: ``colorConverter`` under `.convertToSRGB`, else `nil`.
        var colorConverterForDecoding: (any ColorConverting)? {
            colorProfilePolicy == .convertToSRGB ? colorConverter : nil
        }

        // MARK: Options kept for Nuke compatibility

        /// Has no effect on Linux. On Apple platforms it forces lazily decoded images into bitmaps off the main
        /// thread; decoders here always produce bitmaps (``PlatformImage`` is one). It is still the default
        /// answer of ``ImagePipeline/Delegate/shouldDecompress(response:for:pipeline:)``. Default `true`.
        public var isDecompressionEnabled = true

        /// Has no effect on Linux (Apple's `UIImage.prepareForDisplay` does not exist here). Default `false`.
        public var isUsingPrepareForDisplay = false

        /// Whether progressive previews are stored in the memory cache as they arrive, so that another request
        /// for the same image gets the latest preview at once while the load continues. Default `true`, as in
        /// Nuke. A final image always replaces a preview.
        public var isStoringPreviewsInMemoryCache = true

        /// Whether the pipeline reads `file:` and `data:` URLs itself (the default, `true`). With `false` they go
        /// to ``dataLoader`` like any other URL.
        public var isLocalResourcesSupportEnabled = true

        /// The value of Nuke 13.2's deprecated `maximumDecodedImageSize` (see `Deprecated.swift`), which nothing
        /// reads.
        var nuke13MaximumDecodedImageSize: Int?

        /// Has no effect on Linux (there are no os_signpost intervals to emit). Default `false`.
        public static var isSignpostLoggingEnabled: Bool {
            get { signpostLogging.snapshot }
            set { signpostLogging.withLock { $0 = newValue } }
        }

        private static let signpostLogging = LockedValueBox(false)

        /// Has no effect on Linux: nothing needs decompressing (see ``isDecompressionEnabled``). Kept so that
        /// configurations written for Nuke compile; ``imageDecodingQueue`` limits decoding.
        public var imageDecompressingQueue = TaskQueue(maxConcurrentOperationCount: 2)

        /// The clock of the rate limiter (seconds, monotonic); tests replace it.
        var rateLimiterClock: @Sendable () -> Double = RateLimiter.monotonicSeconds

        /// Creates a configuration with ``ImageCache/shared`` as the memory cache and no disk cache.
        ///
        /// - Parameter dataLoader: The loader for non-local URLs; defaults to ``MissingDataLoader``, which fails
        ///   with an error naming the plugin to add (the `Nuke` product's `setUpShared()` and
        ///   `Configuration.withDataCache` use `CurlDataLoader`).
        public init(dataLoader: any DataLoading = MissingDataLoader()) {
            self.dataLoader = dataLoader
            self.imageCache = ImageCache.shared
            self.makeImageDecoder = { ImageDecoderRegistry.shared.decoder(for: $0) }
            self.callbackQueue = DispatchQueue(label: "com.github.nuke-linux.callbacks")
        }

        /// Creates a configuration with the given memory cache (`nil` for none).
        public init(dataLoader: any DataLoading = MissingDataLoader(), imageCache: (any ImageCaching)?) {
            self.init(dataLoader: dataLoader)
            self.imageCache = imageCache
        }

        static var coreCount: Int {
            max(1, ProcessInfo.processInfo.activeProcessorCount)
        }
    }
}

extension ImagePipeline {
    /// How progressive previews are made from partially downloaded data (with
    /// ``ImagePipeline/Configuration/isProgressiveDecodingEnabled``). Chosen per image by
    /// ``ImagePipeline/Delegate/previewPolicy(for:pipeline:)`` and passed to decoders in
    /// ``ImageDecodingContext/previewPolicy``.
    @frozen public enum PreviewPolicy: Sendable, Equatable {
        /// Decode the data received so far (``ImageDecoding/decodePartiallyDownloadedData(_:)``), repeatedly.
        case incremental
        /// Show the thumbnail embedded in the image's EXIF data, once, as soon as it has arrived; no other
        /// previews.
        case thumbnail
        /// No previews.
        case disabled

        /// Nuke's default: `.incremental` for progressive JPEGs and GIFs, `.disabled` for everything else
        /// (a baseline JPEG's partial image is a strip growing from the top, not worth a decode).
        public static func `default`(for data: Data) -> PreviewPolicy {
            switch AssetType(data) {
            case .gif?: .incremental
            case .jpeg?: JPEGScan.isProgressive(data) ? .incremental : .disabled
            default: .disabled
            }
        }
    }
}
