import Foundation

/// Per-request choices (through the delegate) and the cache lookups every task shares. Safe from any thread.
extension PipelineCore {
    nonisolated func dataLoader(for request: ImageRequest) -> any DataLoading {
        guard let pipeline else { return configuration.dataLoader }
        return delegate.dataLoader(for: request, pipeline: pipeline)
    }

    nonisolated func imageCache(for request: ImageRequest) -> (any ImageCaching)? {
        guard let pipeline else { return configuration.imageCache }
        return delegate.imageCache(for: request, pipeline: pipeline)
    }

    nonisolated func dataCache(for request: ImageRequest) -> (any DataCaching)? {
        guard let pipeline else { return configuration.dataCache }
        return delegate.dataCache(for: request, pipeline: pipeline)
    }

    nonisolated func decoder(for context: ImageDecodingContext) -> (any ImageDecoding)? {
        guard let pipeline else { return configuration.makeImageDecoder(context) }
        return delegate.imageDecoder(for: context, pipeline: pipeline)
    }

    nonisolated func encoder(for context: ImageEncodingContext) -> (any ImageEncoding)? {
        guard let pipeline else { return configuration.makeImageEncoder(context) }
        return delegate.imageEncoder(for: context, pipeline: pipeline)
    }

    /// The disk cache key: the delegate's, or the image identity + processor identifiers + thumbnail.
    nonisolated func makeDataCacheKey(for request: ImageRequest) -> String {
        if let pipeline, let key = delegate.cacheKey(for: request, pipeline: pipeline) {
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

    nonisolated func cachedImage(for request: ImageRequest) -> ImageContainer? {
        guard !request.options.contains(.disableMemoryCacheReads),
            !request.options.contains(.reloadIgnoringCachedData),
            let cache = imageCache(for: request)
        else { return nil }
        return cache[ImageCacheKey(request: request)]
    }

    nonisolated func storeImage(_ container: ImageContainer, for request: ImageRequest) {
        guard !request.options.contains(.disableMemoryCacheWrites), !container.isPreview,
            let cache = imageCache(for: request)
        else { return }
        cache[ImageCacheKey(request: request)] = container
    }

    // MARK: Disk cache

    /// The disk cache to read for `request`, unless its options forbid reading.
    nonisolated func readableDataCache(for request: ImageRequest) -> (any DataCaching)? {
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
