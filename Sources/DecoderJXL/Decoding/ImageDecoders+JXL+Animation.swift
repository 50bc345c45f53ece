public import Foundation
public import NukeCore

extension ImageDecoders.JXL {
    /// The frames and timing of a JPEG XL file, usually the `ImageContainer.data` of an animated one: JPEG XL's
    /// `ImageAnimation`. A still image is an animation of one frame.
    ///
    /// Creating an animation walks the frame headers twice (no pixel is decoded): once frame by frame, to check
    /// every layer's size and the frame count, and once composited, for the displayed frames' durations (ticks of
    /// the animation's `tps_denominator / tps_numerator` seconds). Frames are decoded in order when asked for,
    /// composited by libjxl (blending, layers and zero-duration frames applied), each the size of the canvas.
    ///
    /// ## Looping
    /// ``loopCount`` is the animation header's `num_loops` (0: forever); a still image plays once (1).
    ///
    /// A value type; every method may be called from any thread.
    public struct Animation: ImageAnimation, Sendable {
        /// The JPEG XL data.
        public let data: Data
        /// The displayed width in pixels (orientation applied); every frame image has this width.
        public let canvasWidth: Int
        /// The displayed height in pixels; every frame image has this height.
        public let canvasHeight: Int
        /// The number of displayed frames (1 for a still image).
        public let frameCount: Int
        /// How many times the animation plays; 0 means forever (see "Looping").
        public let loopCount: Int
        /// Each displayed frame's duration in seconds, as stored (0 for a still image).
        public let frameDurations: [TimeInterval]
        /// The coded bits per colour sample; frames are decoded to 8 bits.
        public let bitDepth: Int
        /// The limits used when decoding frames.
        public let configuration: Configuration

        /// Reads the animation's properties from `data` without decoding any frame.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData`, `truncatedData`, `imageTooLarge`, `tooManyFrames`
        ///   or `animationTooLarge`.
        public init(data: Data, configuration: Configuration = .init()) throws {
            guard !data.isEmpty else { throw Error.emptyData }
            let headers = try data.withUnsafeBytes { bytes in
                try JXLHeaders(bytes: bytes, configuration: configuration)
                    .readingFrameDurations(bytes: bytes, configuration: configuration)
            }
            self.data = data
            self.canvasWidth = headers.width
            self.canvasHeight = headers.height
            self.frameDurations = headers.frameDurations ?? [0]
            self.frameCount = frameDurations.count
            self.loopCount = headers.loopCount
            self.bitDepth = headers.bitDepth
            self.configuration = configuration
        }

        /// Returns an iterator over the displayed frames, positioned before the first.
        public func makeFrameIterator() throws -> any ImageAnimationFrameIterator {
            JXLFrameIterator(
                decoder: try JXLSequenceDecoder(data: data, configuration: configuration), frameCount: frameCount)
        }

        /// Decodes displayed frame `index`. Frames are decoded from the start (a frame may blend onto earlier
        /// ones), so the cost grows with `index`; to show every frame use ``forEachFrame(_:)``.
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
