import Foundation

/// Per-request choices (through the delegate) and the cache lookups every task shares. Safe from any thread.
///
/// Without a delegate of the app's, every choice is the configuration's, read directly: no weak load of the
/// pipeline and no delegate call on hot paths such as a memory cache lookup.
extension PipelineCore {
    func dataLoader(for request: ImageRequest) -> any DataLoading {
        guard hasCustomDelegate, let pipeline else { return configuration.dataLoader }
        return delegate.dataLoader(for: request, pipeline: pipeline)
    }

    func imageCache(for request: ImageRequest) -> (any ImageCaching)? {
        guard hasCustomDelegate, let pipeline else { return configuration.imageCache }
        return delegate.imageCache(for: request, pipeline: pipeline)
    }

    func dataCache(for request: ImageRequest) -> (any DataCaching)? {
        guard hasCustomDelegate, let pipeline else { return configuration.dataCache }
        return delegate.dataCache(for: request, pipeline: pipeline)
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
    func storeData(
        _ data: Data, image: ImageContainer?, for request: ImageRequest, key: String, in cache: any DataCaching
    ) {
        guard hasCustomDelegate, let pipeline else {
            return cache.storeData(data, for: key)
        }
        delegate.willCache(data: data, image: image, for: request, pipeline: pipeline) { data in
            if let data { cache.storeData(data, for: key) }
        }
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
