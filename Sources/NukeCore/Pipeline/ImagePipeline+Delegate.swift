import Foundation

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
        func imageEncoder(for context: ImageEncodingContext, pipeline: ImagePipeline) -> (any ImageEncoding)?

        /// A custom disk cache key for `request`, or `nil` for the default key.
        func cacheKey(for request: ImageRequest, pipeline: ImagePipeline) -> String?

        /// Called before the data loader starts, off the pipeline's actor; return the request to send, e.g. with
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

    public func imageEncoder(for context: ImageEncodingContext, pipeline: ImagePipeline) -> (any ImageEncoding)? {
        pipeline.configuration.makeImageEncoder(context)
    }

    public func cacheKey(for request: ImageRequest, pipeline: ImagePipeline) -> String? { nil }

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
}

/// The delegate of pipelines created without one.
final class DefaultPipelineDelegate: ImagePipeline.Delegate {}
