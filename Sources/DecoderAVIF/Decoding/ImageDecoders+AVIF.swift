public import Foundation
public import NukeCore

extension ImageDecoders {
    /// Decodes AVIF with libavif (AV1 decoded by dav1d or libaom) into a premultiplied RGBA `PlatformImage`.
    ///
    /// - 8-, 10- and 12-bit images, every YUV format, with or without alpha, converted to 8-bit premultiplied
    ///   RGBA by libavif. Images without alpha are marked `PlatformImage.isOpaque`.
    /// - The `irot` (rotation) and `imir` (mirror) properties are applied, in that order, so the image is
    ///   shown as intended; EXIF and XMP orientation are ignored, as browsers do for AVIF.
    /// - Image sequences (animated AVIF, `avis`): the container holds the first image and keeps the data in
    ///   `ImageContainer.data`; ``Animation`` reads the frame count and durations and decodes any frame.
    /// - AVIF can't be decoded at a reduced size: a `ImageRequest.thumbnail` request decodes the full image
    ///   and the pipeline resizes it.
    ///
    /// ## Safety
    /// The container is parsed first (`avifDecoderParse`): the image size and frame count are checked against
    /// the ``Configuration`` before any pixel is decoded (libavif's own limits, at least its defaults of 16384²
    /// pixels and 2 592 000 images, stay on as well). Corrupt, truncated or hostile data throws an ``Error`` carrying libavif's message.
    /// Files missing the `pixi` property, which browsers show, are accepted; libavif's other strict checks
    /// stay on.
    ///
    /// ## Registration
    /// ```swift
    /// ImageDecoders.AVIF.register(in: .shared)
    /// // or: ImageDecoderRegistry.shared.register(ImageDecoders.AVIF.init(context:))
    /// ```
    ///
    /// The decoder is stateless and `Sendable`; ``decode(_:)`` may be called from any thread.
    public struct AVIF: ConfigurableImageDecoding, Sendable {
        /// The limits of the decoder.
        public let configuration: Configuration

        /// Creates a decoder.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
        }

        /// Returns a decoder with the given configuration if the context's data is AVIF (an `ftyp` box with the
        /// `avif` or `avis` brand, never by the URL), or `nil`.
        public init?(context: ImageDecodingContext, configuration: Configuration) {
            guard context.type == .avif else { return nil }
            self.configuration = configuration
        }

        /// Decodes the first image, keeping `data` in the container when it is a sequence. The sequence's frame
        /// count and total pixels are not checked here (only the first image is decoded); ``Animation`` checks them.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData` or `truncatedData` (with libavif's message),
        ///   `imageTooLarge` or `outOfMemory`.
        public func decode(_ data: Data) throws -> ImageContainer {
            guard !data.isEmpty else { throw Error.emptyData }
            let (image, isSequence) = try data.withUnsafeBytes { bytes in
                let reader = try AVIFReader(bytes: bytes, configuration: configuration, checksAnimationLimits: false)
                return (try reader.nextImage(), reader.imageCount > 1)
            }
            return ImageContainer(image: image, type: .avif, data: isSequence ? data : nil)
        }
    }
}
