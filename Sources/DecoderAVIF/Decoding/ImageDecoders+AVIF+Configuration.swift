public import NukeCore

extension ImageDecoders.AVIF {
    /// The limits of ``ImageDecoders/AVIF`` and ``ImageDecoders/AVIF/Animation``, checked from the container
    /// before any image is decoded.
    public struct Configuration: AnimatedImageDecoderConfiguration {
        /// The largest image, in pixels (width × height). The default is 100 megapixels (400 MB decoded).
        public var maximumPixelCount: Int

        /// The most images a sequence may have. The default is 10 000.
        public var maximumFrameCount: Int

        /// The most pixels one pass over a sequence may produce (frame count × width × height). The default
        /// is one billion.
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

    /// Why AVIF data could not be decoded. The description names the format and libavif's message.
    public enum Error: ImageAnimationLimitError, Hashable, Sendable, CustomStringConvertible {
        /// The data is empty.
        case emptyData
        /// libavif rejected the data; the message is libavif's (`avifResultToString`).
        case invalidData(message: String)
        /// The data ends before the image does; the message is libavif's.
        case truncatedData(message: String)
        /// The image is larger than ``Configuration/maximumPixelCount``.
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)
        /// The sequence has more images than ``Configuration/maximumFrameCount``.
        case tooManyFrames(maximumFrameCount: Int)
        /// A pass over the sequence would produce more than ``Configuration/maximumTotalPixelCount`` pixels.
        case animationTooLarge(maximumTotalPixelCount: Int)
        /// A frame index outside the sequence.
        case frameIndexOutOfRange(index: Int, frameCount: Int)
        /// libavif could not allocate memory.
        case outOfMemory

        public var description: String {
            switch self {
            case .emptyData:
                "AVIF decoding failed: the data is empty"
            case let .invalidData(message):
                "AVIF decoding failed: \(message)"
            case let .truncatedData(message):
                "AVIF decoding failed: the data is truncated (\(message))"
            case let .imageTooLarge(width, height, maximumPixelCount):
                "AVIF decoding failed: the image is \(width)×\(height) pixels, more than the maximum of "
                    + "\(maximumPixelCount) pixels"
            case let .tooManyFrames(maximumFrameCount):
                "AVIF decoding failed: the sequence has more than the maximum of \(maximumFrameCount) images"
            case let .animationTooLarge(maximumTotalPixelCount):
                "AVIF decoding failed: the sequence's images total more than the maximum of "
                    + "\(maximumTotalPixelCount) pixels"
            case let .frameIndexOutOfRange(index, frameCount):
                "AVIF decoding failed: frame \(index) requested from a sequence of \(frameCount) images"
            case .outOfMemory:
                "AVIF decoding failed: out of memory"
            }
        }
    }
}
