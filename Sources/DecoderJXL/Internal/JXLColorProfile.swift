internal import CJXL
import Foundation
import NukeCore

extension ImageDecoders.JXL {
    /// The ICC profile of the image's original colour space (`JxlDecoderGetColorAsICCProfile`, target "original"):
    /// the profile embedded in the file, or the one libjxl synthesises from the file's structured colour encoding.
    /// `nil` when libjxl can't give one (an unknown or XYB colour space). No pixel is decoded.
    ///
    /// Decoding hands the profile of the pixels it writes to the pipeline as `PlatformImage.colorProfile`.
    ///
    /// - Throws: ``Error``: `emptyData`, `invalidData` or `truncatedData`.
    static func iccProfile(in data: Data) throws -> Data? {
        guard !data.isEmpty else { throw Error.emptyData }
        return try data.withUnsafeBytes { bytes -> Data? in
            let handle = try JXLDecoderHandle(bytes: bytes, events: [JXL_DEC_COLOR_ENCODING])
            while try handle.next(reading: "the colour encoding") != JXL_DEC_COLOR_ENCODING {}
            var size = 0
            guard
                JxlDecoderGetICCProfileSize(handle.decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &size)
                    == JXL_DEC_SUCCESS, size > 0
            else { return nil }
            var profile = Data(count: size)
            let status = profile.withUnsafeMutableBytes { buffer in
                JxlDecoderGetColorAsICCProfile(
                    handle.decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL,
                    buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count)
            }
            return status == JXL_DEC_SUCCESS ? profile : nil
        }
    }
}
