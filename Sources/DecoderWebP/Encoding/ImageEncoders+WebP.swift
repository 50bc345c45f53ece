internal import CWebP
public import Foundation
public import NukeCore

extension ImageEncoders {
    /// Encodes images as WebP with libwebp, lossy or lossless, keeping alpha.
    ///
    /// libwebp takes straight alpha, so images with alpha are converted from premultiplied first; opaque
    /// images are passed as they are. Images larger than 16383 pixels a side (WebP's limit) and empty images
    /// encode to `nil`. An ICC `PlatformImage.colorProfile` is embedded as an `ICCP` chunk (through
    /// libwebpmux); WebP has no place for a CICP description. Thread-safe.
    public struct WebP: ImageEncoding, Sendable {
        /// The lossy quality from 0 (smallest) to 1 (best); values outside are clamped. Lossless encoding
        /// ignores it. Default 0.8.
        public var quality: Float
        /// Whether to encode losslessly (VP8L). Default `false`.
        public var isLossless: Bool

        /// The largest width or height WebP can store.
        public static let maximumDimension = 16383

        /// Creates an encoder.
        public init(quality: Float = 0.8, lossless: Bool = false) {
            self.quality = quality
            self.isLossless = lossless
        }

        public func encode(_ image: PlatformImage) -> Data? {
            guard !image.isEmpty, image.width <= Self.maximumDimension, image.height <= Self.maximumDimension else {
                return nil
            }
            let clamped = quality.isNaN ? 0.8 : min(max(quality, 0), 1)
            let factor = clamped * 100
            var output: UnsafeMutablePointer<UInt8>?
            let size: Int
            if image.isOpaque {
                size = image.withUnsafeBytes { pixels in
                    encode(pixels, width: image.width, height: image.height, stride: image.bytesPerRow, factor, &output)
                }
            } else {
                let straight = image.unpremultipliedRGBA()
                size = straight.withUnsafeBytes { pixels in
                    encode(pixels, width: image.width, height: image.height, stride: image.width * 4, factor, &output)
                }
            }
            defer { WebPFree(output) }
            guard size > 0, let output else { return nil }
            let encoded = Data(bytes: output, count: size)
            guard let profile = image.colorProfile?.iccData else { return encoded }
            return WebPColorProfile.embedding(profile, in: encoded) ?? encoded
        }

        private func encode(
            _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, _ factor: Float,
            _ output: inout UnsafeMutablePointer<UInt8>?
        ) -> Int {
            guard let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            if isLossless {
                return WebPEncodeLosslessRGBA(base, Int32(width), Int32(height), Int32(stride), &output)
            }
            return WebPEncodeRGBA(base, Int32(width), Int32(height), Int32(stride), factor, &output)
        }
    }
}
