public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension ImagePipeline {
    /// Customises a pipeline per request and observes its tasks. Every method has a default implementation
    /// that uses the pipeline's configuration, so implement only what you need.
    ///
    /// The pipeline keeps a strong reference to its delegate. Methods may be called from any thread (task
    /// events come from the pipeline's internal actor), so keep them quick and thread-safe.
    /// Task events arrive in order: created, started, progress…, previews…, finished — once per task.
    public protocol Delegate: AnyObject, Sendable {
        /// The loader for `request`. Default: ``ImagePipeline/Configuration/dataLoader``.
        func dataLoader(for request: ImageRequest, pipeline: ImagePipeline) -> any DataLoading

        /// The memory cache for `request`. Default: ``ImagePipeline/Configuration/imageCache``.
        func imageCache(for request: ImageRequest, pipeline: ImagePipeline) -> (any ImageCaching)?

        /// The disk cache for `request`. Default: ``ImagePipeline/Configuration/dataCache``.
        func dataCache(for request: ImageRequest, pipeline: ImagePipeline) -> (any DataCaching)?

        /// The decoder for an image. Default: ``ImagePipeline/Configuration/makeImageDecoder``.
        func imageDecoder(for context: ImageDecodingContext, pipeline: ImagePipeline) -> (any ImageDecoding)?

        /// The encoder for the disk cache. Default: ``ImagePipeline/Configuration/makeImageEncoder``.
        func imageEncoder(for context: ImageEncodingContext, pipeline: ImagePipeline) -> any ImageEncoding

        /// A custom cache key for `request`, or `nil` for the default keys. The key is used by both caches:
        /// as the disk cache key and, wrapped in ``ImageCacheKey/init(key:)``, as the memory cache key.
        func cacheKey(for request: ImageRequest, pipeline: ImagePipeline) -> String?

        /// Called before `data` is written to the disk cache, off the task graph; call `completion` with
        /// the data to store (the same, or changed — e.g. encrypted), or with `nil` to store nothing. `image` is
        /// the image the data encodes when the pipeline stores an encoded processed image, `nil` for original
        /// data. Call `completion` exactly once; until it is called the entry is not written. The default
        /// stores `data` as is.
        func willCache(
            data: Data, image: ImageContainer?, for request: ImageRequest, pipeline: ImagePipeline,
            completion: @escaping (Data?) -> Void)

        /// The preview policy for progressive decoding of one image (see ``ImagePipeline/PreviewPolicy``). The
        /// default is ``ImagePipeline/PreviewPolicy/default(for:)``.
        func previewPolicy(for context: ImageDecodingContext, pipeline: ImagePipeline) -> ImagePipeline.PreviewPolicy

        /// Whether to call ``decompress(response:request:pipeline:)`` for a decoded image. On Apple platforms this
        /// forces a lazily decoded image into a bitmap. Decoders here always produce bitmaps, so the default
        /// returns ``ImagePipeline/Configuration/isDecompressionEnabled`` and the default `decompress` returns
        /// the response unchanged; an app may still use the pair as a post-decode hook.
        func shouldDecompress(response: ImageResponse, for request: ImageRequest, pipeline: ImagePipeline) -> Bool

        /// Returns the response to deliver in place of a freshly decoded one, when
        /// ``shouldDecompress(response:for:pipeline:)`` says so. Runs off the task graph, on the decoding
        /// queue. The default returns `response` (nothing to decompress on Linux).
        func decompress(response: ImageResponse, request: ImageRequest, pipeline: ImagePipeline) -> ImageResponse

        /// Called before the data loader starts, off the task graph; return the request to send, e.g. with
        /// an `Authorization` header. Cache keys and sharing are decided before, from the original request, so
        /// they stay stable. Throwing fails the task with ``ImagePipeline/Error/dataLoadingFailed(error:)``.
        func willLoadData(
            for request: ImageRequest, urlRequest: URLRequest, pipeline: ImagePipeline
        ) async throws
            -> URLRequest

        /// Called for every task the pipeline creates.
        func imageTaskCreated(_ task: ImageTask, pipeline: ImagePipeline)

        /// Called when a task starts its work (not for tasks cancelled before they started).
        func imageTaskDidStart(_ task: ImageTask, pipeline: ImagePipeline)

        /// Called when data arrives.
        func imageTask(_ task: ImageTask, didUpdateProgress progress: ImageTask.Progress, pipeline: ImagePipeline)

        /// Called for each progressive preview.
        func imageTask(_ task: ImageTask, didReceivePreview response: ImageResponse, pipeline: ImagePipeline)

        /// Called once when the task finishes, including when it is cancelled (with
        /// ``ImagePipeline/Error/cancelled``).
        func imageTask(
            _ task: ImageTask,
            didCompleteWithResult result: Result<ImageResponse, ImagePipeline.Error>,
            pipeline: ImagePipeline)

        /// Called for every event of a task — progress, previews, and the one `finished` event (also for a
        /// cancelled task) — after the event-specific method above. Nuke's single observation point.
        func imageTask(_ task: ImageTask, didReceiveEvent event: ImageTask.Event, pipeline: ImagePipeline)
    }
}

extension ImagePipeline.Delegate {
    public func dataLoader(for request: ImageRequest, pipeline: ImagePipeline) -> any DataLoading {
        pipeline.configuration.dataLoader
    }

    public func imageCache(for request: ImageRequest, pipeline: ImagePipeline) -> (any ImageCaching)? {
        pipeline.configuration.imageCache
    }

    public func dataCache(for request: ImageRequest, pipeline: ImagePipeline) -> (any DataCaching)? {
        pipeline.configuration.dataCache
    }

    public func imageDecoder(for context: ImageDecodingContext, pipeline: ImagePipeline) -> (any ImageDecoding)? {
        pipeline.configuration.makeImageDecoder(context)
    }

    public func imageEncoder(for context: ImageEncodingContext, pipeline: ImagePipeline) -> any ImageEncoding {
        pipeline.configuration.makeImageEncoder(context)
    }

    public func cacheKey(for request: ImageRequest, pipeline: ImagePipeline) -> String? { nil }

    public func willCache(
        data: Data, image: ImageContainer?, for request: ImageRequest, pipeline: ImagePipeline,
        completion: @escaping (Data?) -> Void
    ) {
        completion(data)
    }

    public func previewPolicy(
        for context: ImageDecodingContext, pipeline: ImagePipeline
    ) -> ImagePipeline.PreviewPolicy {
        ImagePipeline.PreviewPolicy.default(for: context.data)
    }

    public func shouldDecompress(response: ImageResponse, for request: ImageRequest, pipeline: ImagePipeline) -> Bool {
        pipeline.configuration.isDecompressionEnabled
    }

    public func decompress(response: ImageResponse, request: ImageRequest, pipeline: ImagePipeline) -> ImageResponse {
        response
    }

    public func willLoadData(
        for request: ImageRequest, urlRequest: URLRequest, pipeline: ImagePipeline
    )
        async throws -> URLRequest
    {
        urlRequest
    }

    public func imageTaskCreated(_ task: ImageTask, pipeline: ImagePipeline) {}

    public func imageTaskDidStart(_ task: ImageTask, pipeline: ImagePipeline) {}

    public func imageTask(_ task: ImageTask, didUpdateProgress progress: ImageTask.Progress, pipeline: ImagePipeline) {}

    public func imageTask(_ task: ImageTask, didReceivePreview response: ImageResponse, pipeline: ImagePipeline) {}

    public func imageTask(
        _ task: ImageTask,
        didCompleteWithResult result: Result<ImageResponse, ImagePipeline.Error>,
        pipeline: ImagePipeline
    ) {}

    public func imageTask(_ task: ImageTask, didReceiveEvent event: ImageTask.Event, pipeline: ImagePipeline) {}
}

/// The delegate of pipelines created without one.
final class DefaultPipelineDelegate: ImagePipeline.Delegate {}
