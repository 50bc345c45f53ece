public import Foundation
public import NukeCore

extension ImageEncoders {
    /// Encodes images as JPEG XL with libjxl (a bare codestream), 8 bits per sample, keeping alpha.
    ///
    /// The samples are labelled sRGB unless the image still has a `PlatformImage.colorProfile` (the pipeline's
    /// `.keepOriginal` policy): an ICC profile is embedded, and a CICP description JPEG XL can state (BT.709,
    /// Display P3 or BT.2020 primaries with the sRGB, BT.709, linear, PQ or HLG transfer) is written as the file's
    /// colour encoding; a profile libjxl refuses, or another CICP description, is left out.
    ///
    /// Lossy encoding codes XYB at the butteraugli distance ``quality`` maps to, as `cjxl -q` maps its quality;
    /// ``isLossless`` (or ``quality`` 1, like `cjxl -q 100`) stores the pixels exactly. Alpha is stored straight,
    /// as every decoder expects it (the premultiplied colours are divided by alpha first; premultiplying them again
    /// gives back the same bytes, so a lossless round trip is exact); opaque images get no alpha channel. Empty images, and images libjxl refuses, encode to `nil`. Thread-safe; libjxl encodes
    /// on the calling thread, and ``effort`` trades its time against size.
    public struct JXL: ImageEncoding, Sendable {
        /// The quality from 0 (smallest) to 1 (lossless); values outside are clamped. Below 1 it maps to libjxl's
        /// distance as `cjxl -q` maps 100 × quality: `0.1 + (100 − q) × 0.09` from q = 30 (0.9 is distance 1,
        /// "visually lossless"), `6.4 + 2.5^((30 − q) / 5) / 6.25` below, at most libjxl 0.7's 15. Default 0.9.
        public var quality: Float
        /// libjxl's effort from 1 (fastest) to 9 (slowest, smallest files); values outside are clamped. Default 7,
        /// libjxl's own.
        public var effort: Int
        /// Encodes losslessly whatever ``quality`` says. Default `false`.
        public var isLossless: Bool

        /// Creates an encoder.
        public init(quality: Float = 0.9, effort: Int = 7, isLossless: Bool = false) {
            self.quality = quality
            self.effort = effort
            self.isLossless = isLossless
        }

        /// Encodes `image` as a JPEG XL codestream, or returns `nil` for an empty image or one libjxl refuses.
        /// Runs on the calling thread; thread-safe.
        public func encode(_ image: PlatformImage) -> Data? {
            guard !image.isEmpty,
                let writer = JXLWriter(
                    width: image.width, height: image.height, hasAlpha: !image.isOpaque, loopCount: nil,
                    distance: distance, effort: effort, colorProfile: image.colorProfile),
                writer.add(image)
            else { return nil }
            return writer.finish()
        }

        /// libjxl's distance for ``quality``, as `cjxl` computes it; `nil` for lossless.
        var distance: Float? {
            let quality = Double(self.quality.isNaN ? 0.9 : min(max(self.quality, 0), 1)) * 100
            guard !isLossless, quality < 100 else { return nil }
            let distance = quality >= 30 ? 0.1 + (100 - quality) * 0.09 : 6.4 + pow(2.5, (30 - quality) / 5) / 6.25
            return Float(min(distance, 15))
        }
    }
}
