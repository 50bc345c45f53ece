internal import CAVIF
public import Foundation
public import NukeCore

extension ImageEncoders {
    /// Encodes images as AVIF with libavif (AV1 by libaom), 8-bit, keeping alpha.
    ///
    /// The premultiplied pixels are handed to libavif as premultiplied RGBA (it records that in the file's
    /// alpha, as the format allows), converted to YUV 4:2:0 for ``quality`` below 1 and 4:4:4 at 1. Empty
    /// images, and images libavif can't encode (larger than its limits, or no AV1 encoder available), encode
    /// to `nil`. Thread-safe; encoding is slow compared to WebP or JPEG, which ``speed`` trades against size.
    public struct AVIF: ImageEncoding, Sendable {
        /// The quality from 0 (smallest) to 1 (best, near-lossless); values outside are clamped. It maps onto
        /// AV1's quantizer range (63 … 0). Default 0.6.
        public var quality: Float
        /// The encoder speed from 0 (slowest, smallest files) to 10 (fastest); values outside are clamped.
        /// Default 8.
        public var speed: Int

        /// Creates an encoder.
        public init(quality: Float = 0.6, speed: Int = 8) {
            self.quality = quality
            self.speed = speed
        }

        public func encode(_ image: PlatformImage) -> Data? {
            guard let avif = makeImage(image) else { return nil }
            defer { avifImageDestroy(avif) }
            guard let encoder = makeEncoder() else { return nil }
            defer { avifEncoderDestroy(encoder) }
            var output = avifRWData()
            defer { avifRWDataFree(&output) }
            guard avifEncoderWrite(encoder, avif, &output) == AVIF_RESULT_OK, let bytes = output.data else {
                return nil
            }
            return Data(bytes: bytes, count: output.size)
        }

        /// The clamped quality.
        private var clampedQuality: Float { quality.isNaN ? 0.6 : min(max(quality, 0), 1) }

        /// `image` as an 8-bit avifImage (4:2:0 below quality 1, 4:4:4 at 1); release it with `avifImageDestroy`.
        /// The file's alpha is straight (libavif un-premultiplies the image's colours while converting them), as
        /// every AVIF decoder expects: a file flagged premultiplied is read right by few.
        func makeImage(_ image: PlatformImage) -> UnsafeMutablePointer<avifImage>? {
            guard !image.isEmpty, let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height)
            else { return nil }
            let format = clampedQuality >= 1 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
            guard let avif = avifImageCreate(width, height, 8, format) else { return nil }
            let converted = image.withUnsafeBytes { pixels -> Bool in
                guard let base = pixels.baseAddress else { return false }
                var rgb = avifRGBImage()
                avifRGBImageSetDefaults(&rgb, avif)
                rgb.format = AVIF_RGB_FORMAT_RGBA
                rgb.depth = 8
                rgb.ignoreAlpha = image.isOpaque ? AVIF_TRUE : AVIF_FALSE
                rgb.alphaPremultiplied = AVIF_TRUE
                rgb.pixels = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
                rgb.rowBytes = UInt32(image.bytesPerRow)
                return avifImageRGBToYUV(avif, &rgb) == AVIF_RESULT_OK
            }
            guard converted else {
                avifImageDestroy(avif)
                return nil
            }
            switch image.colorProfile {
            case let .icc(data)?:
                data.withUnsafeBytes {
                    avifImageSetProfileICC(avif, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count)
                }
            case let .cicp(value)?:
                // The primaries and transfer describe the pixels; the matrix and range are the encoder's own.
                avif.pointee.colorPrimaries = avifColorPrimaries(value.colorPrimaries)
                avif.pointee.transferCharacteristics = avifTransferCharacteristics(value.transferCharacteristics)
            case nil:
                break
            }
            return avif
        }

        /// An encoder with the quality and speed settings; release it with `avifEncoderDestroy`.
        func makeEncoder() -> UnsafeMutablePointer<avifEncoder>? {
            guard let encoder = avifEncoderCreate() else { return nil }
            let quantizer = Int32((1 - clampedQuality) * 63)
            encoder.pointee.minQuantizer = quantizer
            encoder.pointee.maxQuantizer = quantizer
            encoder.pointee.minQuantizerAlpha = quantizer
            encoder.pointee.maxQuantizerAlpha = quantizer
            encoder.pointee.speed = Int32(min(max(speed, 0), 10))
            encoder.pointee.maxThreads = 1
            return encoder
        }
    }
}
