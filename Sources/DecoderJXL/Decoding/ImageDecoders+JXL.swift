public import Foundation
public import NukeCore

extension ImageDecoders {
    /// Decodes JPEG XL with libjxl into a premultiplied RGBA `PlatformImage`.
    ///
    /// - Both forms: a bare codestream (`FF 0A`) and the ISO BMFF container (including recompressed JPEGs, which
    ///   are decoded to pixels). Any bit depth is decoded to 8 bits; grey images come as RGB.
    /// - Alpha: images without alpha are marked `PlatformImage.isOpaque`; straight alpha is premultiplied, and
    ///   associated (premultiplied) alpha is kept as stored.
    /// - Orientation: the image is returned as displayed, its orientation (from the codestream, where cjxl puts a
    ///   JPEG's EXIF orientation) applied by libjxl.
    /// - Colour: an XYB-coded image (what lossy encoders write) is converted by libjxl to sRGB; an image coded in
    ///   its original colour space (lossless, or a recompressed JPEG) comes in that space, with its ICC profile as
    ///   the image's `colorProfile` (nil when it is sRGB), which the pipeline's colour converter applies.
    /// - Animations: the container holds the first displayed frame and keeps the data in `ImageContainer.data`;
    ///   ``Animation`` reads the frame count, durations and loop count and decodes any frame. Layers and
    ///   zero-duration frames are composited into the frame they belong to, as viewers show them.
    /// - Progressive: ``decodePartiallyDownloadedData(_:)`` shows what has arrived of a still image.
    /// - JPEG XL isn't decoded at a reduced size here: a `ImageRequest.thumbnail` request decodes the full image and
    ///   the pipeline resizes it.
    ///
    /// ## Safety
    /// Before any pixel is decoded, the headers are read and every frame header walked (the frames' data is
    /// skipped): the image, and each layer at its own size, are checked against
    /// ``Configuration/maximumPixelCount``, and the number of frames against ``Configuration/maximumFrameCount``; a
    /// file with more than 8 extra channels (alpha, depth, spot colours, …), each a plane libjxl decodes, is refused.
    /// Corrupt, truncated or hostile data throws an ``Error``. libjxl decodes on the calling thread (no thread pool).
    ///
    /// ## Registration
    /// ```swift
    /// ImageDecoders.JXL.register(in: .shared)
    /// // or: ImageDecoderRegistry.shared.register(ImageDecoders.JXL.init(context:))
    /// ```
    ///
    /// The decoder is `Sendable`; ``decode(_:)`` may be called from any thread. Previews keep libjxl's decoder for
    /// the image being loaded, so use one instance per image when decoding progressively (the pipeline does).
    public struct JXL: ConfigurableImageDecoding, Sendable {
        /// The limits of the decoder.
        public let configuration: Configuration

        /// libjxl's decoder for previews, created on the first preview.
        let incremental = JXLIncrementalState()

        /// Creates a decoder.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
        }

        /// Returns a decoder with the given configuration if the context's data is JPEG XL (the codestream's `FF 0A`
        /// or the container's signature box, never by the URL), or `nil`.
        public init?(context: ImageDecodingContext, configuration: Configuration) {
            guard context.type == .jxl else { return nil }
            self.configuration = configuration
        }

        /// Decodes the first displayed frame, keeping `data` in the container when the file is an animation. The
        /// total pixels of an animation are not checked here (only one frame is decoded); ``Animation`` checks
        /// them.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData`, `truncatedData`, `imageTooLarge`, `tooManyFrames` or
        ///   `outOfMemory`.
        public func decode(_ data: Data) throws -> ImageContainer {
            incremental.stop()  // The final image replaces the previews: release the preview decoder.
            guard !data.isEmpty else { throw Error.emptyData }
            let configuration = configuration
            let (image, isAnimated) = try data.withUnsafeBytes { bytes in
                let headers = try JXLHeaders(bytes: bytes, configuration: configuration)
                guard let image = try JXLFrameDecoder(bytes: bytes, headers: headers).next() else {
                    throw Error.invalidData(message: "the file has no displayed frame")
                }
                return (image, headers.isAnimated)
            }
            return ImageContainer(image: image, type: .jxl, data: isAnimated ? data : nil)
        }
    }
}
