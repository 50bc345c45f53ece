public import Foundation
public import NukeCore

extension ImageDecoders.AVIF {
    /// The images and timing of an AVIF file, usually the `ImageContainer.data` of an AVIF image sequence:
    /// AVIF's `ImageAnimation`. A still AVIF is an animation of one frame.
    ///
    /// Creating an animation parses the container (no image is decoded): size, image count and each image's
    /// duration from the sequence's timing. Frames are decoded in order when asked for; an AV1 sequence's
    /// images are whole pictures, so nothing is composited, and a pass holds libavif's decoded planes and the
    /// frame it returns.
    ///
    /// ## Looping
    /// ``loopCount`` comes from the colour track's edit list (`moov/trak/edts/elst`), read by this package because
    /// libavif 0.11 (Debian 12) doesn't expose it, with AVIF's rule (as libavif 1.x applies it): an edit list
    /// without the "repeat" flag plays once; a repeating one plays ⌈track duration ÷ segment duration⌉ times, or
    /// forever (0) when the track's duration is indefinite. A sequence without a readable edit list loops forever,
    /// as browsers play it; a still image plays once (1).
    ///
    /// A value type; every method may be called from any thread.
    public struct Animation: ImageAnimation, Sendable {
        /// The AVIF data.
        public let data: Data
        /// The displayed width in pixels (`irot` applied); every frame image has this width.
        public let canvasWidth: Int
        /// The displayed height in pixels; every frame image has this height.
        public let canvasHeight: Int
        /// The number of images (1 for a still image).
        public let frameCount: Int
        /// How many times the sequence plays; 0 means forever (see "Looping").
        public let loopCount: Int
        /// Each image's duration in seconds, as stored.
        public let frameDurations: [TimeInterval]
        /// The coded bit depth (8, 10 or 12); frames are decoded to 8 bits.
        public let bitDepth: Int
        /// The limits used when decoding frames.
        public let configuration: Configuration

        /// Reads the sequence's properties from `data` without decoding any image.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData`, `truncatedData`, `imageTooLarge`, `tooManyFrames`
        ///   or `animationTooLarge`.
        public init(data: Data, configuration: Configuration = .init()) throws {
            guard !data.isEmpty else { throw Error.emptyData }
            // The reader reads from the bytes: everything is taken from it inside the closure.
            let (width, height, count, depth, durations, plays) = try data.withUnsafeBytes { bytes in
                let reader = try AVIFReader(bytes: bytes, configuration: configuration)
                let plays = reader.imageCount > 1 ? AVIFEditList.playCount(in: bytes) ?? 0 : 1
                return (
                    reader.width, reader.height, reader.imageCount, reader.depth, try reader.durations(), plays
                )
            }
            self.data = data
            self.canvasWidth = width
            self.canvasHeight = height
            self.frameCount = count
            self.loopCount = plays
            self.frameDurations = durations
            self.bitDepth = depth
            self.configuration = configuration
        }

        /// Returns an iterator over the images, positioned before the first.
        public func makeFrameIterator() throws -> any ImageAnimationFrameIterator {
            AVIFFrameIterator(
                decoder: try AVIFSequenceDecoder(data: data, configuration: configuration), frameCount: frameCount)
        }

        /// Decodes image `index`. Images are decoded from the start (AV1 frames depend on earlier ones), so
        /// the cost grows with `index`; to show every frame use ``forEachFrame(_:)``.
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
