public import Foundation
public import NukeCore

extension ImageDecoders {
    /// Decodes GIF with giflib into a premultiplied RGBA `PlatformImage`: the first frame, composited on the
    /// logical screen as a browser shows it. The container's `ImageContainer.type` is `AssetType.gif` and
    /// it keeps the original data in `ImageContainer.data` (as Nuke does for GIF), from which ``Animation``
    /// reads the frames, loop count and durations of an animated GIF.
    ///
    /// - GIF87a and GIF89a; global and local color tables; the transparent index of the graphic control
    ///   extension; interlaced frames; disposal (none, background, previous) between frames.
    /// - Frames that extend past the logical screen are clipped to it. The area no frame has drawn is
    ///   transparent, and "restore to background" clears to transparent, as browsers do (the background
    ///   color index is ignored). Palette indices past the end of the color table draw opaque black.
    /// - GIF can't be decoded at a reduced size: a `ImageRequest.thumbnail` request decodes the full first
    ///   frame and the pipeline resizes it.
    ///
    /// ## Safety
    /// giflib reads the file record by record from memory (never `DGifSlurp`, which decodes every frame at
    /// once). The logical screen and the frame are checked against ``Configuration/maximumPixelCount``
    /// before any pixel memory is allocated or any pixel decoded; frames are decoded row by row straight onto
    /// the canvas, by an LZW decoder of this plugin's own (giflib parses the rest of the file). Corrupt,
    /// truncated or hostile data throws an ``Error`` carrying giflib's message; a code past the next free entry
    /// of the LZW table is `invalidData` ("Image is defective"), which giflib's own decoder sometimes turned
    /// into garbage pixels instead.
    ///
    /// ## Registration
    /// ```swift
    /// ImageDecoders.GIF.register(in: .shared)
    /// // or: ImageDecoderRegistry.shared.register(ImageDecoders.GIF.init(context:))
    /// ```
    ///
    /// The decoder is stateless and `Sendable`; ``decode(_:)`` may be called from any thread.
    public struct GIF: ConfigurableImageDecoding, Sendable {
        /// The limits of the decoder.
        public let configuration: Configuration

        /// Creates a decoder.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
        }

        /// Returns a decoder with the given configuration if the context's data is GIF (by its magic bytes,
        /// never by the URL), or `nil`.
        public init?(context: ImageDecodingContext, configuration: Configuration) {
            guard context.type == .gif else { return nil }
            self.configuration = configuration
        }

        /// Decodes the first frame, keeping `data` in the container.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData` (with giflib's message, also for a file with no
        ///   image), `truncatedData`, `imageTooLarge` or `outOfMemory`.
        public func decode(_ data: Data) throws -> ImageContainer {
            guard !data.isEmpty else { throw Error.emptyData }
            let image = try data.withUnsafeBytes { bytes in
                let reader = try openReader(bytes)
                guard let frame = try reader.nextFrame() else {
                    throw Error.invalidData(message: "the file has no image")
                }
                try checkFrame(frame)
                let isOpaque =
                    !frame.hasTransparency && frame.covers(width: reader.screenWidth, height: reader.screenHeight)
                return try makeImage(width: reader.screenWidth, height: reader.screenHeight, isOpaque: isOpaque) {
                    try reader.draw(frame, into: $0)
                }
            }
            return ImageContainer(image: image, type: .gif, data: data)
        }

        /// Checks the logical screen size in the header (bytes 6–9) against the pixel limit, then opens a giflib
        /// reader (which reads the global color table) and checks the screen again.
        func openReader(_ bytes: UnsafeRawBufferPointer) throws(Error) -> GIFReader {
            guard !bytes.isEmpty else { throw .emptyData }
            if bytes.count >= 10, bytes.starts(with: [0x47, 0x49, 0x46]) {  // "GIF"
                try checkScreen(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
            }
            let reader = try GIFReader(bytes: bytes)
            try checkScreen(width: reader.screenWidth, height: reader.screenHeight)
            return reader
        }

        /// Throws `invalidData` for an empty logical screen, `imageTooLarge` for one over the pixel limit.
        private func checkScreen(width: Int, height: Int) throws(Error) {
            guard width > 0, height > 0 else {
                throw .invalidData(message: "the logical screen is \(width)×\(height) pixels")
            }
            try configuration.checkPixelCount(width: width, height: height, throwing: Error.self)
        }

        /// Throws `imageTooLarge` if a frame's own rectangle is over the pixel limit (an empty frame is allowed).
        func checkFrame(_ frame: GIFFrame) throws(Error) {
            guard frame.width > 0, frame.height > 0 else { return }
            try configuration.checkPixelCount(width: frame.width, height: frame.height, throwing: Error.self)
        }

        /// A canvas-sized image whose pixels `draw` writes.
        func makeImage(
            width: Int, height: Int, isOpaque: Bool, draw: (UnsafeMutableRawPointer) throws -> Void
        ) throws -> PlatformImage {
            do {
                return try PlatformImage(width: width, height: height, isOpaque: isOpaque) { pixels in
                    guard let base = pixels.baseAddress else { return }
                    try draw(base)
                }
            } catch is PlatformImage.Error {
                throw Error.imageTooLarge(
                    width: width, height: height, maximumPixelCount: configuration.maximumPixelCount)
            }
        }
    }
}
