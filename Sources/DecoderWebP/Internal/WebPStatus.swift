internal import CWebP
import NukeCore

extension ImageDecoders.WebP.Error {
    /// The error for a libwebp status other than `VP8_STATUS_OK`.
    init(status: VP8StatusCode, context: String) {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: self = .truncatedData
        case VP8_STATUS_OUT_OF_MEMORY: self = .outOfMemory
        case VP8_STATUS_INVALID_PARAM:
            self = .invalidData(message: "\(context): invalid parameter (VP8_STATUS_INVALID_PARAM)")
        case VP8_STATUS_BITSTREAM_ERROR:
            self = .invalidData(message: "\(context): bitstream error (VP8_STATUS_BITSTREAM_ERROR)")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            self = .invalidData(message: "\(context): unsupported feature (VP8_STATUS_UNSUPPORTED_FEATURE)")
        case VP8_STATUS_SUSPENDED: self = .truncatedData
        case VP8_STATUS_USER_ABORT: self = .invalidData(message: "\(context): aborted (VP8_STATUS_USER_ABORT)")
        default: self = .invalidData(message: "\(context): status \(status.rawValue)")
        }
    }
}

/// What the bitstream header says (`WebPGetFeatures`). Reading it allocates nothing.
struct WebPFeatures {
    var width: Int
    var height: Int
    var hasAlpha: Bool
    var hasAnimation: Bool

    init(bytes: UnsafeRawBufferPointer) throws(ImageDecoders.WebP.Error) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .emptyData }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else {
            throw ImageDecoders.WebP.Error(status: status, context: "header")
        }
        width = Int(features.width)
        height = Int(features.height)
        hasAlpha = features.has_alpha != 0
        hasAnimation = features.has_animation != 0
    }

    /// Throws `imageTooLarge` if the image is over the configuration's pixel limit (or has a non-positive side).
    func checkSize(_ configuration: ImageDecoders.WebP.Configuration) throws(ImageDecoders.WebP.Error) {
        try configuration.checkPixelCount(width: width, height: height, throwing: ImageDecoders.WebP.Error.self)
    }
}
