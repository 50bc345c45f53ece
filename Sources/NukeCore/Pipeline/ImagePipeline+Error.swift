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
        /// No registered decoder handles the data (no codec plugin for the format?). The description says where
        /// the pipeline looked: ``ImageDecoderRegistry/shared`` (the default), the configuration's own
        /// ``ImagePipeline/Configuration/makeImageDecoder``, or its delegate.
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

        /// Nuke's wording, so logs and code that match messages read the same; a missing decoder also says
        /// which format arrived and where the pipeline looked for a decoder.
        public var description: String {
            switch self {
            case .dataMissingInCache:
                "Failed to load data from cache and download is disabled."
            case let .dataLoadingFailed(error):
                "Failed to load image data. Underlying error: \(error)."
            case .dataIsEmpty:
                "Data loader returned empty data."
            case .dataDownloadExceededMaximumSize:
                "Data downloaded exceeded the maximum allowed size."
            case let .decoderNotRegistered(context):
                "No decoders registered for the downloaded data. "
                    + "(\(context.type.map { "\($0)" } ?? "unknown format"), \(context.data.count) bytes from "
                    + "\(context.request.imageID ?? "nil"); \(context.decoderLookup.advice))"
            case let .decodingFailed(decoder, _, error):
                "Failed to decode image data using decoder \(decoder)."
                    + (error is ImageDecodingError ? "" : " Underlying error: \(error).")
            case let .processingFailed(processor, _, error):
                "Failed to process the image using processor \(processor)."
                    + (error is ImageProcessingError ? "" : " Underlying error: \(error).")
            case .imageRequestMissing:
                "Load image method was called with no image request or no URL."
            case .pipelineInvalidated:
                "Image pipeline is invalidated and no requests can be made."
            case .cancelled:
                "Image task was cancelled"
            }
        }

        /// The error of the data loader (or the request's data closure) when the load failed, else `nil`.
        public var dataLoadingError: (any Swift.Error)? {
            if case let .dataLoadingFailed(error) = self { return error }
            return nil
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
