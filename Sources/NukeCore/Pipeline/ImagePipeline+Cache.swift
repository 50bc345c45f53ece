extension ImagePipeline {
    /// The pipeline's caches, addressed by request: the same keys the pipeline uses.
    ///
    /// ```swift
    /// pipeline.cache[request] = container      // store
    /// let cached = pipeline.cache[request]     // read
    /// ```
    /// Every member is safe to call from any thread. Reads honour ``ImageRequest/Options/disableMemoryCacheReads``
    /// and writes ``ImageRequest/Options/disableMemoryCacheWrites``.
    public struct Cache: Sendable {
        let pipeline: ImagePipeline

        private var imageCache: (any ImageCaching)? { pipeline.configuration.imageCache }

        /// The cached image for `request`; setting `nil` removes it.
        public subscript(request: ImageRequest) -> ImageContainer? {
            get { cachedImage(for: request) }
            nonmutating set {
                if let newValue {
                    storeCachedImage(newValue, for: request)
                } else {
                    removeCachedImage(for: request)
                }
            }
        }

        /// The image in the memory cache for `request`, or `nil`.
        public func cachedImage(for request: ImageRequest) -> ImageContainer? {
            guard !request.options.contains(.disableMemoryCacheReads), let imageCache else { return nil }
            return imageCache[makeImageCacheKey(for: request)]
        }

        /// Stores `image` in the memory cache for `request`. Previews are not stored.
        public func storeCachedImage(_ image: ImageContainer, for request: ImageRequest) {
            guard !request.options.contains(.disableMemoryCacheWrites), !image.isPreview, let imageCache else {
                return
            }
            imageCache[makeImageCacheKey(for: request)] = image
        }

        /// Removes the image for `request` from the memory cache.
        public func removeCachedImage(for request: ImageRequest) {
            imageCache?[makeImageCacheKey(for: request)] = nil
        }

        /// `true` if the memory cache holds an image for `request`.
        public func containsCachedImage(for request: ImageRequest) -> Bool {
            cachedImage(for: request) != nil
        }

        /// The memory cache key of `request`.
        public func makeImageCacheKey(for request: ImageRequest) -> ImageCacheKey {
            ImageCacheKey(request: request)
        }

        /// Removes every image from the memory cache.
        public func removeAll() {
            imageCache?.removeAll()
        }
    }
}
