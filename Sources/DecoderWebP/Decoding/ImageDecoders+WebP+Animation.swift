public import Foundation
public import NukeCore

extension ImageDecoders.WebP {
    /// The frames and timing of a WebP file, usually the `ImageContainer.data` of an animated WebP: WebP's
    /// `ImageAnimation`.
    ///
    /// Creating an animation reads only the container (libwebp's demuxer): canvas size, frame count, loop
    /// count and durations; it decodes no pixels. ``frame(at:)`` and ``forEachFrame(_:)`` decode frames
    /// composited onto the canvas exactly as a viewer shows them (disposal and blending applied), as
    /// premultiplied RGBA the size of the canvas, in the colour space of the file's `ICCP` chunk, which every
    /// frame carries as `PlatformImage.colorProfile` (as the still decode does), so a consumer converts frames as the
    /// pipeline converts stills. A still WebP is an animation of one frame.
    ///
    /// ```swift
    /// let container = try await pipeline.imageTask(with: url).response.container
    /// if let data = container.data, let animation = try? ImageDecoders.WebP.Animation(data: data) {
    ///     print(animation.frameCount, animation.loopCount, animation.frameDurations)
    ///     let third = try animation.frame(at: 2)
    /// }
    /// ```
    ///
    /// A value type; every method may be called from any thread.
    public struct Animation: ImageAnimation, Sendable {
        /// One decoded frame.
        public typealias Frame = ImageAnimationFrame

        /// The WebP data.
        public let data: Data
        /// The canvas width in pixels; every frame image has this width.
        public let canvasWidth: Int
        /// The canvas height in pixels; every frame image has this height.
        public let canvasHeight: Int
        /// The number of frames (1 for a still image).
        public let frameCount: Int
        /// How many times the animation plays; 0 means forever (1 for a still image).
        public let loopCount: Int
        /// How long each frame is shown, in seconds, as stored in the file (viewers often show very short
        /// durations longer).
        public let frameDurations: [TimeInterval]
        /// The limits used when decoding frames.
        public let configuration: Configuration
        /// The profile of the file's `ICCP` chunk, which every frame carries as `PlatformImage.colorProfile`; `nil`
        /// for a file without one (sRGB).
        public let colorProfile: ColorProfile?

        /// Reads the animation's properties from `data` without decoding any pixels.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData` (the data is not a complete WebP file) or
        ///   `imageTooLarge` (the canvas exceeds ``Configuration/maximumPixelCount``).
        public init(data: Data, configuration: Configuration = .init()) throws {
            guard !data.isEmpty else { throw Error.emptyData }
            let info = try data.withUnsafeBytes { try WebPDemuxInfo(bytes: $0) }
            try configuration.checkPixelCount(width: info.canvasWidth, height: info.canvasHeight, throwing: Error.self)
            self.data = data
            self.canvasWidth = info.canvasWidth
            self.canvasHeight = info.canvasHeight
            self.frameCount = info.frameDurations.count
            self.loopCount = info.loopCount
            self.frameDurations = info.frameDurations.map { TimeInterval($0) / 1000 }
            self.configuration = configuration
            self.colorProfile = data.withUnsafeBytes { WebPColorProfile.iccProfile(in: $0) }.map(ColorProfile.icc)
        }

        /// Returns an iterator over the composited frames, positioned before the first (libwebp's animation
        /// decoder, which keeps one canvas); each frame carries ``colorProfile``.
        public func makeFrameIterator() throws -> any ImageAnimationFrameIterator {
            WebPFrameIterator(
                decoder: try WebPAnimationDecoder(data: data, width: canvasWidth, height: canvasHeight),
                frameCount: frameCount, colorProfile: colorProfile)
        }

        /// Decodes the canvas as shown at frame `index`. Frames are composited from the start, so the cost
        /// grows with `index`; to show every frame use ``forEachFrame(_:)``.
        ///
        /// - Throws: ``Error/frameIndexOutOfRange(index:frameCount:)``, or a decoding error.
        public func frame(at index: Int) throws -> PlatformImage {
            guard index >= 0, index < frameCount else {
                throw Error.frameIndexOutOfRange(index: index, frameCount: frameCount)
            }
            return try compositedFrame(at: index)
        }
    }
}

/// A pass over an animation's frames with one libwebp animation decoder.
struct WebPFrameIterator: ImageAnimationFrameIterator {
    let decoder: WebPAnimationDecoder
    let frameCount: Int
    /// The file's profile, given to every frame.
    let colorProfile: ColorProfile?
    var index = 0

    mutating func next() throws -> PlatformImage? {
        guard index < frameCount else { return nil }
        index += 1
        var image = try decoder.next()
        image.colorProfile = colorProfile
        return image
    }
}
