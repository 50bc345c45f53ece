public import Foundation
public import NukeCore

extension ImageDecoders {
    /// Decodes PNG with libpng's simplified API into a premultiplied RGBA `PlatformImage`.
    ///
    /// Every colour type and bit depth is supported: grayscale (1, 2, 4, 8, 16 bits), RGB (8, 16),
    /// palette (1, 2, 4, 8) with or without `tRNS` transparency, gray + alpha, RGBA, colour-key `tRNS`, and
    /// Adam7 interlacing. 16-bit samples are reduced to 8 bits; the straight alpha of the file is
    /// premultiplied. Images without alpha are marked `PlatformImage.isOpaque`. The colour profile of a `cICP` or
    /// `iCCP` chunk becomes `PlatformImage.colorProfile` (an `sRGB` chunk means sRGB: no profile); the pixels are
    /// left in that colour space for the pipeline's converter.
    ///
    /// PNG can't be decoded at a reduced size, so a `ImageRequest.thumbnail` request decodes the full
    /// image and the pipeline resizes it.
    ///
    /// ## Safety
    /// The image size is read from the header and checked against ``Configuration/maximumPixelCount``
    /// before any pixel memory is allocated. libpng's simplified API keeps its `setjmp`/`longjmp` inside
    /// libpng, so corrupt, truncated or hostile data throws an ``Error`` carrying libpng's message.
    ///
    /// ## Registration
    /// ```swift
    /// ImageDecoders.PNG.register(in: .shared)
    /// // or: ImageDecoderRegistry.shared.register(ImageDecoders.PNG.init(context:))
    /// ```
    ///
    /// The decoder is stateless and `Sendable`; ``decode(_:)`` may be called from any thread.
    public struct PNG: ConfigurableImageDecoding, Sendable {
        /// The limits of the decoder.
        public let configuration: Configuration

        /// Creates a decoder.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
        }

        /// Returns a decoder with the given configuration if the context's data is PNG (by its magic bytes,
        /// never by the URL), or `nil`.
        public init?(context: ImageDecodingContext, configuration: Configuration) {
            guard context.type == .png else { return nil }
            self.configuration = configuration
        }

        /// Decodes the complete data.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData` (with libpng's message, which also covers
        ///   truncated data) or `imageTooLarge`.
        public func decode(_ data: Data) throws -> ImageContainer {
            guard !data.isEmpty else { throw Error.emptyData }
            let image = try data.withUnsafeBytes { bytes in
                var image = try PNGReader(bytes: bytes).decode(configuration: configuration)
                image.colorProfile = PNGColorChunks.profile(in: bytes)
                return image
            }
            return ImageContainer(image: image, type: .png)
        }
    }
}
