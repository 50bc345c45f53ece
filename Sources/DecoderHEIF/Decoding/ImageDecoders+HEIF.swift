public import Foundation
public import NukeCore

extension ImageDecoders {
    /// Decodes HEIC and HEIF with libheif (HEVC decoded by libde265) into a premultiplied RGBA `PlatformImage`.
    ///
    /// - The primary image, 8- or 10-bit, with or without alpha, converted to 8-bit RGBA by libheif and
    ///   premultiplied (a file that stores premultiplied alpha is taken as it is). Images without alpha are
    ///   marked `PlatformImage.isOpaque`. Grid (tiled) images are assembled by libheif. Colour is not converted here:
    ///   the image carries the file's ICC profile (or its nclx values, unless they mean sRGB) as `colorProfile`, which
    ///   the pipeline's colour converter applies.
    /// - The `clap` (crop), `irot` (rotation) and `imir` (mirror) properties are applied by libheif, so the image
    ///   is in display orientation; EXIF orientation is ignored, as browsers and Apple's decoder do for HEIF.
    /// - Thumbnails: when the request has an `ImageRequest.thumbnail` and the file has a thumbnail item (`thmb`)
    ///   at least as large as the thumbnail's pixel size, with the primary image's aspect ratio (within two pixels) and orientation (`irot`, `imir`), the smallest
    ///   such item is decoded instead of the primary image (a fraction of the work and memory); the result is at
    ///   least as large as the thumbnail and the pipeline resizes it. Otherwise, or when the thumbnail item can't
    ///   be decoded, the full image is decoded.
    /// - Image sequences (`msf1`, HEVC tracks) and bursts: libheif 1.15 (Debian 12) has no sequence API, so only
    ///   the primary image is decoded and the container keeps no animation.
    ///
    /// ## Safety
    /// The container is read first (`heif_context_read_from_memory_without_copy`) and the primary image's size,
    /// as displayed, is checked against ``Configuration/maximumPixelCount`` before any pixel is decoded, and so is
    /// the canvas size that every grid (tiled) and overlay item declares in its own data, and the picture size
    /// that every HEVC sequence parameter set declares (coded sizes, which may exceed the displayed size by the
    /// encoder's padding of a few pixels): libheif 1.15 allocates those whatever the items' `ispe` properties say. libheif's
    /// own limits stay on (at most 32 767 pixels a side, fewer when ``Configuration/maximumPixelCount`` is
    /// smaller), and tiles are decoded on the calling thread. Corrupt, truncated or hostile data throws an
    /// ``Error`` carrying libheif's message.
    ///
    /// ## Registration
    /// ```swift
    /// ImageDecoders.HEIF.register(in: .shared)
    /// // or: ImageDecoderRegistry.shared.register(ImageDecoders.HEIF.init(context:))
    /// ```
    ///
    /// The decoder is stateless and `Sendable`; ``decode(_:)`` may be called from any thread.
    public struct HEIF: ConfigurableImageDecoding, Sendable {
        /// The limits of the decoder.
        public let configuration: Configuration

        /// The size the request wants (its thumbnail and scale).
        let target: ImageDecodingTarget

        /// Creates a decoder that decodes the primary image at full size.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
            self.target = ImageDecodingTarget()
        }

        /// Returns a decoder with the given configuration if the context's data is HEIC or HEIF (an `ftyp` box
        /// with a HEIC brand, or the generic `mif1`/`msf1` brand with a HEIC compatible brand; never by the URL),
        /// or `nil`. The decoder honours the request's `ImageRequest.thumbnail` and scale.
        public init?(context: ImageDecodingContext, configuration: Configuration) {
            guard context.type == .heic || context.type == .heif else { return nil }
            self.configuration = configuration
            self.target = ImageDecodingTarget(request: context.request)
        }

        /// Decodes the primary image, or a thumbnail item for a thumbnail request (see above). The container's
        /// type is `AssetType.heic` for data with a HEIC brand, else `AssetType.heif`.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData`, `truncatedData`, `unsupportedFeature` or
        ///   `limitExceeded` (with libheif's message), `imageTooLarge` or `outOfMemory`.
        public func decode(_ data: Data) throws -> ImageContainer {
            guard !data.isEmpty else { throw Error.emptyData }
            let image = try data.withUnsafeBytes { bytes in
                let reader = try HEIFReader(bytes: bytes, configuration: configuration)
                let primary = try reader.primaryImage()
                try configuration.checkPixelCount(
                    width: primary.width, height: primary.height, throwing: Error.self)
                if let thumbnail = primary.thumbnail(covering: target), let image = try? thumbnail.decode() {
                    return image
                }
                return try primary.decode()
            }
            return ImageContainer(image: image, type: AssetType(data) == .heic ? .heic : .heif)
        }
    }
}
