import Foundation
import NukeCore

extension ServeError {
    /// The service's answer for a pipeline failure: the origin's 404/410 is a 404, its other statuses and network
    /// failures a 502; a body over the byte limit 413; an image over a decoder's limits (pixels, frames) or a result
    /// over the dimension limit 422; data no decoder reads, or fails to decode, 415.
    init(_ error: ImagePipeline.Error, source: String) {
        let source = String(source.prefix(120))
        switch error {
        case let .dataLoadingFailed(underlying):
            if (underlying as? any ConnectionRefusalError)?.refusedAddress != nil {
                // Not which address, nor its class: the answer would tell anyone who can send URLs what internal
                // names resolve to.
                self.init(.forbidden, "the source's address is not allowed")
            } else if let status = (underlying as? any HTTPStatusCodeError)?.httpStatusCode {
                if status == 404 || status == 410 {
                    self.init(.notFound, "the source \(source) was not found (the origin answered \(status))")
                } else {
                    self.init(.badGateway, "the origin answered \(status) for \(source)")
                }
            } else {
                self.init(.badGateway, "loading \(source) failed: \(underlying)")
            }
        case .dataDownloadExceededMaximumSize:
            self.init(.sourceTooLarge, "the source \(source) is larger than the source byte limit")
        case .dataIsEmpty:
            self.init(.unsupportedFormat, "the source \(source) is empty")
        case .decoderNotRegistered:
            self.init(.unsupportedFormat, "the source \(source) is not an image format the service decodes")
        case let .decodingFailed(_, _, underlying):
            if Self.isOverLimit(underlying) {
                self.init(.overLimit, "the source \(source) is over a limit: \(underlying)")
            } else {
                self.init(.unsupportedFormat, "the source \(source) could not be decoded: \(underlying)")
            }
        case let .processingFailed(_, _, underlying):
            if case .outputTooLarge = underlying as? ImageProcessingError {
                self.init(.overLimit, "the result would be over the dimension limit: \(underlying)")
            } else {
                self.init(.internalError, "processing \(source) failed: \(underlying)")
            }
        case .dataMissingInCache, .imageRequestMissing, .pipelineInvalidated, .cancelled:
            self.init(.internalError, "the request could not be completed: \(error)")
        }
    }

    /// Whether a decoder's error says the image is over one of its limits: the `imageTooLarge`, `tooManyFrames` and
    /// `animationTooLarge` cases that every codec's error has (`ImageDecodingSizeError`,
    /// `ImageAnimationLimitError`), found by the case's name.
    static func isOverLimit(_ error: any Error) -> Bool {
        guard error is any ImageDecodingSizeError else { return false }
        let label = Mirror(reflecting: error).children.first?.label
        return ["imageTooLarge", "tooManyFrames", "animationTooLarge"].contains(label ?? "")
    }
}
