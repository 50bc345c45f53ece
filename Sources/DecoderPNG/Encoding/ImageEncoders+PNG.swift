public import Foundation
public import NukeCore

extension ImageEncoders {
    /// Encodes images as 8-bit PNG with libpng's simplified API.
    ///
    /// Opaque images (`PlatformImage.isOpaque`, or every alpha byte 255) are written as RGB, the others
    /// as RGBA with straight alpha (the premultiplied pixels are converted back; colour under very low alpha
    /// loses precision, as with any premultiplied source). A `PlatformImage.colorProfile` is embedded, an ICC
    /// profile as `iCCP` and a CICP description as `cICP`. Returns `nil` for an empty image or if libpng fails.
    /// Thread-safe.
    public struct PNG: ImageEncoding, Sendable {
        /// Trades compression ratio for speed (libpng's `PNG_IMAGE_FLAG_FAST`). Default `false`.
        public var isFast: Bool

        /// Creates an encoder.
        public init(isFast: Bool = false) {
            self.isFast = isFast
        }

        public func encode(_ image: PlatformImage) -> Data? {
            guard !image.isEmpty, image.width <= Int(Int32.max) / 4 else { return nil }
            let isOpaque = image.isOpaque || PNGWriter.isFullyOpaque(image)
            let pixels = isOpaque ? PNGWriter.rgb(of: image) : image.unpremultipliedRGBA()
            let encoded = PNGWriter(width: image.width, height: image.height, hasAlpha: !isOpaque, isFast: isFast)
                .write(pixels)
            guard let encoded, let profile = image.colorProfile else { return encoded }
            return PNGColorChunks.embedding(profile, in: encoded) ?? encoded
        }
    }
}
