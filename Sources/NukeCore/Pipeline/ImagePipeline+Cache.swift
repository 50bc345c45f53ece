public import Foundation

extension ImagePipeline {
    /// The pipeline's caches, addressed by request, with the same keys and per-request choices the pipeline
    /// uses (including the delegate's).
    ///
    /// ```swift
    /// pipeline.cache[request] = container      // store in memory
    /// let cached = pipeline.cache[request]     // read from memory
    /// let data = pipeline.cache.cachedData(for: request)  // read from disk
    /// ```
    /// Every member is safe to call from any thread. Reads honour the request's `disable…Reads` and
    /// `reloadIgnoringCachedData` options and writes its `disable…Writes` options.
    public struct Cache: Sendable {
        let pipeline: ImagePipeline

        private var core: PipelineCore { pipeline.core }

        /// Which caches an operation applies to.
        public struct Caches: OptionSet, Sendable, Hashable {
            public let rawValue: Int

            public init(rawValue: Int) { self.rawValue = rawValue }

            /// The memory cache of decoded images.
            public static let memory = Caches(rawValue: 1 << 0)
            /// The disk cache of data.
            public static let disk = Caches(rawValue: 1 << 1)
            /// Both.
            public static let all: Caches = [.memory, .disk]
        }

        /// The image in the memory cache for `url` (a plain request for it); setting `nil` removes it.
        public subscript(url: URL) -> ImageContainer? {
            get { self[ImageRequest(url: url)] }
            nonmutating set { self[ImageRequest(url: url)] = newValue }
        }

        /// The image in the memory cache for `request`; setting `nil` removes it.
        public subscript(request: ImageRequest) -> ImageContainer? {
            get { cachedImage(for: request, caches: .memory) }
            nonmutating set {
                if let newValue {
                    storeCachedImage(newValue, for: request, caches: .memory)
                } else {
                    removeCachedImage(for: request, caches: .memory)
                }
            }
        }

        /// The cached image for `request`: from memory, else (with `.disk`) decoded from the disk cache
        /// synchronously on the calling thread.
        public func cachedImage(for request: ImageRequest, caches: Caches = .all) -> ImageContainer? {
            if caches.contains(.memory), let container = core.cachedImage(for: request) {
                return container
            }
            guard caches.contains(.disk), let data = cachedData(for: request) else { return nil }
            var context = ImageDecodingContext(request: request, data: data, isCompleted: true, cacheType: .disk)
            context.colorConverter = core.configuration.colorConverterForDecoding
            guard let decoder = core.decoder(for: context) else { return nil }
            return decodeCachedData(
                context, with: decoder, converter: core.configuration.colorConverterForDecoding)?.container
        }

        /// Stores `image` for `request`: in memory, and (with `.disk`) encoded with the pipeline's encoder in
        /// the disk cache. Previews are not stored.
        public func storeCachedImage(_ image: ImageContainer, for request: ImageRequest, caches: Caches = .all) {
            guard !image.isPreview else { return }
            if caches.contains(.memory) {
                core.storeImage(image, for: request)
            }
            if caches.contains(.disk) {
                let context = ImageEncodingContext(request: request, image: image.image)
                if let data = core.encoder(for: context).encode(image, context: context) {
                    storeCachedData(data, for: request)
                }
            }
        }

        /// Removes the image for `request` from the given caches.
        public func removeCachedImage(for request: ImageRequest, caches: Caches = .all) {
            if caches.contains(.memory) {
                core.imageCache(for: request)?[makeImageCacheKey(for: request)] = nil
            }
            if caches.contains(.disk) {
                removeCachedData(for: request)
            }
        }

        /// `true` if the given caches hold an image (or data) for `request`.
        public func containsCachedImage(for request: ImageRequest, caches: Caches = .all) -> Bool {
            if caches.contains(.memory), core.cachedImage(for: request) != nil {
                return true
            }
            return caches.contains(.disk) && containsData(for: request)
        }

        // MARK: Data

        /// The data in the disk cache for `request` (encoded image if it has processors or a thumbnail,
        /// else the original data).
        ///
        /// These are the stored bytes whatever their HTTP freshness (see ``cachedHTTPMetadata(for:)``); a damaged
        /// entry reads as `nil`.
        public func cachedData(for request: ImageRequest) -> Data? {
            guard let cache = core.readableDataCache(for: request),
                let data = cache.cachedData(for: makeDataCacheKey(for: request))
            else { return nil }
            return HTTPCacheEntry(decoding: data).body
        }

        /// The HTTP metadata stored with the disk cache entry of `request` (with
        /// ``ImagePipeline/HTTPCachePolicy/followHeaders``), or `nil` when there is no entry or it has none (data
        /// from a closure or a local file, stored by the app, or stored with the headers ignored). For an encoded,
        /// processed image, it is the metadata of the original it was made from. For a stored error status (see
        /// ``CachedHTTPStatusError``), whose entry has no data, it is that response's, with its status. Decide with
        /// ``HTTPCacheMetadata/decision(at:)``.
        public func cachedHTTPMetadata(for request: ImageRequest) -> HTTPCacheMetadata? {
            guard let cache = core.readableDataCache(for: request),
                let data = cache.cachedData(for: makeDataCacheKey(for: request))
            else { return nil }
            return HTTPCacheEntry(decoding: data).metadata
        }

        /// Stores `data` in the disk cache for `request`, without HTTP metadata: it is fresh until evicted.
        public func storeCachedData(_ data: Data, for request: ImageRequest) {
            guard !request.options.contains(.disableDiskCacheWrites), let cache = core.dataCache(for: request) else {
                return
            }
            cache.storeData(data, for: makeDataCacheKey(for: request))
        }

        /// Removes the data for `request` from the disk cache.
        public func removeCachedData(for request: ImageRequest) {
            core.dataCache(for: request)?.removeData(for: makeDataCacheKey(for: request))
        }

        /// `true` if the disk cache holds an entry for `request`: data, or (following HTTP headers) a stored error
        /// status, which ``cachedData(for:)`` reads as `nil`.
        public func containsData(for request: ImageRequest) -> Bool {
            guard let cache = core.readableDataCache(for: request) else { return false }
            return cache.containsData(for: makeDataCacheKey(for: request))
        }

        // MARK: Keys and maintenance

        /// The memory cache key of `request`: the delegate's custom key
        /// (``ImagePipeline/Delegate/cacheKey(for:pipeline:)``) if it gives one, else ``ImageCacheKey/init(request:)``.
        public func makeImageCacheKey(for request: ImageRequest) -> ImageCacheKey {
            core.makeImageCacheKey(for: request)
        }

        /// The disk cache key of `request`: the delegate's custom key, or the image identity followed by the
        /// processors' identifiers and the thumbnail's.
        public func makeDataCacheKey(for request: ImageRequest) -> String {
            core.makeDataCacheKey(for: request)
        }

        /// Empties the given caches of the configuration (per-request caches chosen by a delegate are not
        /// touched).
        public func removeAll(caches: Caches = .all) {
            if caches.contains(.memory) {
                pipeline.configuration.imageCache?.removeAll()
            }
            if caches.contains(.disk) {
                pipeline.configuration.dataCache?.removeAll()
            }
        }
    }
}
