extension ImagePipeline {
    /// Why a request failed. Every case has a readable ``description`` naming the cause.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The request asked for cached data only (`returnCacheDataDontLoad`) and there was none.
        case dataMissingInCache
        /// The data loader (or the request's data closure) failed; `error` is its error.
        case dataLoadingFailed(error: any Swift.Error)
        /// The load succeeded but returned no bytes.
        case dataIsEmpty
        /// The download grew past ``ImagePipeline/Configuration/maximumResponseDataSize``.
        case dataDownloadExceededMaximumSize
        /// No registered decoder handles the data (no codec plugin for the format?).
        case decoderNotRegistered(context: ImageDecodingContext)
        /// The decoder failed; `error` is its error.
        case decodingFailed(decoder: any ImageDecoding, context: ImageDecodingContext, error: any Swift.Error)
        /// A processor failed; `error` is its error.
        case processingFailed(processor: any ImageProcessing, context: ImageProcessingContext, error: any Swift.Error)
        /// The request has no URL (or the URL string was invalid).
        case imageRequestMissing
        /// The pipeline was invalidated and takes no more work.
        case pipelineInvalidated
        /// The task was cancelled.
        case cancelled

        public var description: String {
            switch self {
            case .dataMissingInCache:
                "Failed to load data from the cache: it is missing and the request allows no loading"
            case let .dataLoadingFailed(error):
                "Failed to load image data: \(error)"
            case .dataIsEmpty:
                "Failed to load image data: the response body is empty"
            case .dataDownloadExceededMaximumSize:
                "Failed to load image data: the download exceeded the maximum allowed size"
            case let .decoderNotRegistered(context):
                "No image decoder is registered for \(context.type.map { "\($0)" } ?? "this data") "
                    + "(\(context.data.count) bytes from \(context.request.imageID ?? "nil")); "
                    + "register a codec plugin with ImageDecoderRegistry.shared.register(…)"
            case let .decodingFailed(decoder, context, error):
                "Failed to decode \(context.data.count) bytes from \(context.request.imageID ?? "nil") "
                    + "with \(type(of: decoder)): \(error)"
            case let .processingFailed(processor, context, error):
                "Failed to process the image from \(context.request.imageID ?? "nil") "
                    + "with \(processor.identifier): \(error)"
            case .imageRequestMissing:
                "The request has no URL"
            case .pipelineInvalidated:
                "The pipeline was invalidated and accepts no new requests"
            case .cancelled:
                "The image task was cancelled"
            }
        }

        /// The underlying error of the failing loader, decoder or processor, if any.
        public var underlyingError: (any Swift.Error)? {
            switch self {
            case let .dataLoadingFailed(error): error
            case let .decodingFailed(_, _, error): error
            case let .processingFailed(_, _, error): error
            default: nil
            }
        }

        /// `true` when the error is ``cancelled``.
        public var isCancelled: Bool {
            if case .cancelled = self { return true }
            return false
        }
    }
}
