public import Dispatch
import Foundation

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
        /// Returning `nil` fails the request with ``ImagePipeline/Error/decoderNotRegistered(context:)``.
        public var makeImageDecoder: @Sendable (ImageDecodingContext) -> (any ImageDecoding)?

        /// Whether equivalent requests share work (download, decode, processing). Default `true`.
        /// With `false` every request does all its own work.
        public var isTaskCoalescingEnabled = true

        /// The largest response body the pipeline accepts, in bytes; `nil` means no limit (the default).
        /// Larger downloads are cancelled and fail with
        /// ``ImagePipeline/Error/dataDownloadExceededMaximumSize``, whether or not the server announced
        /// the length.
        public var maximumResponseDataSize: Int?

        /// The queue the closure API (``ImagePipeline/loadImage(with:progress:completion:)``) calls back on.
        /// The default is a serial queue owned by the configuration: Linux programs often run no main loop, so
        /// `DispatchQueue.main` is never assumed.
        public var callbackQueue: DispatchQueue

        /// Limits concurrent data loads (default 6).
        public var dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 6)

        /// Limits concurrent decodes (default: the number of active cores).
        public var imageDecodingQueue = TaskQueue(maxConcurrentOperationCount: Configuration.coreCount)

        /// Limits concurrent processing (default: the number of active cores).
        public var imageProcessingQueue = TaskQueue(maxConcurrentOperationCount: Configuration.coreCount)

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - dataLoader: The loader for non-local URLs; defaults to ``MissingDataLoader``.
        ///   - imageCache: The memory cache; defaults to ``ImageCache/shared``.
        public init(
            dataLoader: any DataLoading = MissingDataLoader(),
            imageCache: (any ImageCaching)? = ImageCache.shared
        ) {
            self.dataLoader = dataLoader
            self.imageCache = imageCache
            self.makeImageDecoder = { ImageDecoderRegistry.shared.decoder(for: $0) }
            self.callbackQueue = DispatchQueue(label: "com.github.nuke-linux.callbacks")
        }

        static var coreCount: Int {
            max(1, ProcessInfo.processInfo.activeProcessorCount)
        }
    }
}
