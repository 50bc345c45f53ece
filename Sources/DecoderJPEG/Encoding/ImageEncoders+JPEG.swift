internal import CJPEGShim
public import Foundation
public import NukeCore

extension ImageEncoders {
    /// Encodes images as JPEG with libjpeg-turbo.
    ///
    /// JPEG has no alpha channel: the premultiplied colour is written, which is the image composited over
    /// black. An ICC `PlatformImage.colorProfile` is embedded as `APP2 ICC_PROFILE` segments (a CICP description
    /// has no place in JPEG and is left out). Returns `nil` for an empty image or if libjpeg fails. Thread-safe.
    public struct JPEG: ImageEncoding, Sendable {
        /// The compression quality from 0 (smallest) to 1 (best); values outside are clamped. Default 0.8.
        public var quality: Float
        /// Whether to write a progressive JPEG (a multi-scan file that can be displayed while it loads).
        public var isProgressive: Bool

        /// Creates an encoder.
        public init(quality: Float = 0.8, isProgressive: Bool = false) {
            self.quality = quality
            self.isProgressive = isProgressive
        }

        public func encode(_ image: PlatformImage) -> Data? {
            guard !image.isEmpty, image.width <= Int(UInt16.max), image.height <= Int(UInt16.max) else {
                return nil
            }
            let clamped = quality.isNaN ? 0.8 : min(max(quality, 0), 1)
            let libjpegQuality = Int32(max(1, (clamped * 100).rounded()))
            var output: UnsafeMutablePointer<UInt8>?
            var size = 0
            var message = [CChar](repeating: 0, count: Int(CJPEGShim_MESSAGE_LENGTH))
            let status = image.withUnsafeBytes { pixels -> Int32 in
                guard let base = pixels.baseAddress else { return CJPEGShim_ERROR }
                return CJPEGShim_Encode(
                    base.assumingMemoryBound(to: UInt8.self), UInt32(image.width), UInt32(image.height),
                    image.bytesPerRow, libjpegQuality, isProgressive ? 1 : 0, &output, &size, &message)
            }
            defer { CJPEGShim_FreeEncoded(output) }
            guard status == CJPEGShim_OK, let output else { return nil }
            let encoded = Data(bytes: output, count: size)
            guard let profile = image.colorProfile?.iccData else { return encoded }
            return JPEGMarkers.embedding(profile, in: encoded) ?? encoded
        }
    }
}
