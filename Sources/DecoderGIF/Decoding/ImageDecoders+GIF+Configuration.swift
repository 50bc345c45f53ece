public import NukeCore

extension ImageDecoders.GIF {
    /// The limits of ``ImageDecoders/GIF`` and ``ImageDecoders/GIF/Animation``. Every limit is checked from
    /// the headers before the pixels it guards are allocated or decoded.
    public struct Configuration: AnimatedImageDecoderConfiguration {
        /// The largest logical screen (the canvas), and the largest single frame, in pixels (width × height).
        /// The default is 100 megapixels (400 MB decoded).
        public var maximumPixelCount: Int

        /// The most frames an ``ImageDecoders/GIF/Animation`` accepts. The default is 10 000.
        public var maximumFrameCount: Int

        /// The most pixels one pass over an animation may produce and decode: for every frame, the canvas
        /// it returns plus the frame's own rectangle. It bounds a file of many tiny frames over a huge
        /// screen, where each frame is cheap to store but returns a whole canvas. The default is one
        /// billion (a 300-frame 1000×1000 animation is 600 million).
        public var maximumTotalPixelCount: Int

        /// Creates a configuration.
        public init(
            maximumPixelCount: Int = Self.defaultMaximumPixelCount,
            maximumFrameCount: Int = Self.defaultMaximumFrameCount,
            maximumTotalPixelCount: Int = Self.defaultMaximumTotalPixelCount
        ) {
            self.maximumPixelCount = maximumPixelCount
            self.maximumFrameCount = maximumFrameCount
            self.maximumTotalPixelCount = maximumTotalPixelCount
        }

        /// Creates the default configuration.
        public init() {
            self.init(maximumPixelCount: Self.defaultMaximumPixelCount)
        }
    }

    /// Why GIF data could not be decoded. The description names the format and, where there is one,
    /// giflib's own message.
    public enum Error: ImageAnimationLimitError, Hashable, Sendable, CustomStringConvertible {
        /// The data is empty.
        case emptyData
        /// giflib rejected the data (not a GIF, a bad record or corrupt image data); the message is giflib's.
        case invalidData(message: String)
        /// The data ends before the image does; the message is giflib's.
        case truncatedData(message: String)
        /// The logical screen or a frame is larger than ``Configuration/maximumPixelCount``.
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)
        /// The animation has more frames than ``Configuration/maximumFrameCount``.
        case tooManyFrames(maximumFrameCount: Int)
        /// A pass over the animation would produce more than ``Configuration/maximumTotalPixelCount`` pixels.
        case animationTooLarge(maximumTotalPixelCount: Int)
        /// A frame index outside the animation.
        case frameIndexOutOfRange(index: Int, frameCount: Int)
        /// giflib could not allocate memory.
        case outOfMemory

        public var description: String {
            switch self {
            case .emptyData:
                "GIF decoding failed: the data is empty"
            case let .invalidData(message):
                "GIF decoding failed: \(message)"
            case let .truncatedData(message):
                "GIF decoding failed: the data is truncated (\(message))"
            case let .imageTooLarge(width, height, maximumPixelCount):
                "GIF decoding failed: the image is \(width)×\(height) pixels, more than the maximum of "
                    + "\(maximumPixelCount) pixels"
            case let .tooManyFrames(maximumFrameCount):
                "GIF decoding failed: the animation has more than the maximum of \(maximumFrameCount) frames"
            case let .animationTooLarge(maximumTotalPixelCount):
                "GIF decoding failed: the animation's frames total more than the maximum of "
                    + "\(maximumTotalPixelCount) pixels"
            case let .frameIndexOutOfRange(index, frameCount):
                "GIF decoding failed: frame \(index) requested from an animation of \(frameCount) frames"
            case .outOfMemory:
                "GIF decoding failed: out of memory (giflib: \"Failed to allocate required memory\")"
            }
        }
    }
}
