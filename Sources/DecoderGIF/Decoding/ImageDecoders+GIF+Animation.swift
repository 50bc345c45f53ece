public import Foundation
public import NukeCore

extension ImageDecoders.GIF {
    /// The frames and timing of a GIF file, usually the `ImageContainer.data` of a GIF: GIF's
    /// `ImageAnimation`.
    ///
    /// Creating an animation walks the file's records with giflib, skipping every frame's compressed data:
    /// it reads the logical screen, the frame count, the NETSCAPE2.0 loop count and the delays, and decodes no
    /// pixels. Frames are decoded when asked for, composited as a browser shows them (see
    /// ``ImageDecoders/GIF``). A still GIF is an animation of one frame.
    ///
    /// ## Timing
    /// GIF stores delays in hundredths of a second. ``frameDurations`` are the durations browsers show:
    /// Chrome, Firefox and Safari show a delay of 0 or 10 ms (0 or 1 hundredth) as 100 ms, because many
    /// files were written with a zero delay and meant "as slow as the old browsers showed it".
    /// ``storedFrameDurations`` are the delays as stored.
    ///
    /// ## Looping
    /// The NETSCAPE2.0 (or ANIMEXTS1.0) extension stores how many times the animation *repeats*, 0 meaning
    /// forever (``storedLoopCount``); a file without it plays once. ``loopCount`` is the number of plays, as
    /// browsers count them: 0 (forever) for a stored 0, the stored count plus one otherwise, 1 without the
    /// extension.
    ///
    /// ## Truncated files
    /// A file that ends (or is corrupt) after at least one frame's data is complete has the frames read so
    /// far, as browsers show them; an error in the compressed pixels of a frame is thrown when that frame is
    /// decoded.
    ///
    /// A value type; every method may be called from any thread.
    public struct Animation: ImageAnimation, Sendable {
        /// The GIF data.
        public let data: Data
        /// The logical screen width in pixels; every frame image has this width.
        public let canvasWidth: Int
        /// The logical screen height in pixels; every frame image has this height.
        public let canvasHeight: Int
        /// The number of frames (1 for a still image).
        public let frameCount: Int
        /// How many times the animation plays; 0 means forever (see "Looping").
        public let loopCount: Int
        /// The NETSCAPE2.0 repeat count as stored (0 means forever), or `nil` if the file has none.
        public let storedLoopCount: Int?
        /// How long each frame is shown, in seconds, as browsers show it (see "Timing").
        public let frameDurations: [TimeInterval]
        /// Each frame's delay as stored, in seconds.
        public let storedFrameDurations: [TimeInterval]
        /// The limits used when reading and decoding frames.
        public let configuration: Configuration

        /// Reads the animation's properties from `data` without decoding any pixels.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData` or `truncatedData` (no complete frame, with giflib's
        ///   message), `imageTooLarge` (the screen or a frame exceeds ``Configuration/maximumPixelCount``),
        ///   `tooManyFrames` or `animationTooLarge`.
        public init(data: Data, configuration: Configuration = .init()) throws {
            guard !data.isEmpty else { throw Error.emptyData }
            let scan = try data.withUnsafeBytes { try GIFScan(bytes: $0, configuration: configuration) }
            self.data = data
            self.canvasWidth = scan.screenWidth
            self.canvasHeight = scan.screenHeight
            self.frameCount = scan.delays.count
            self.storedLoopCount = scan.storedLoopCount
            self.loopCount = scan.storedLoopCount.map { $0 == 0 ? 0 : $0 + 1 } ?? 1
            self.storedFrameDurations = scan.delays.map { TimeInterval($0) / 100 }
            self.frameDurations = scan.delays.map { Self.displayedDuration(hundredths: $0) }
            self.configuration = configuration
        }

        /// The duration browsers show for a stored delay: 100 ms for 0 or 10 ms, else the delay.
        public static func displayedDuration(hundredths delay: Int) -> TimeInterval {
            delay <= 1 ? 0.1 : TimeInterval(delay) / 100
        }

        /// Returns an iterator over the composited frames, positioned before the first. It keeps one canvas
        /// (and the saved area of a frame with "restore to previous" disposal) and returns it per frame; the
        /// canvas is copied before the next frame is drawn only if the caller still holds the previous one.
        public func makeFrameIterator() throws -> any ImageAnimationFrameIterator {
            GIFFrameIterator(
                decoder: try GIFCanvasDecoder(data: data, configuration: configuration), frameCount: frameCount)
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
