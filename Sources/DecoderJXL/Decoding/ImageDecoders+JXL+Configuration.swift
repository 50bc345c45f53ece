public import NukeCore

extension ImageDecoders.JXL {
    /// The limits of ``ImageDecoders/JXL`` and ``ImageDecoders/JXL/Animation``, checked from the headers before any
    /// pixel is decoded.
    public struct Configuration: AnimatedImageDecoderConfiguration {
        /// The largest image, and the largest frame (layer) in it, in pixels (width × height). The default is
        /// 100 megapixels (400 MB decoded).
        public var maximumPixelCount: Int

        /// The most frames a file may have, counting every frame of the codestream (layers composited into one
        /// displayed image too). The default is 10 000.
        public var maximumFrameCount: Int

        /// The most pixels one pass over an animation may produce (displayed frame count × width × height). The
        /// default is one billion.
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

    /// Why JPEG XL data could not be decoded. The description names the format and the step that failed (libjxl
    /// 0.7 reports only a status, no message).
    public enum Error: ImageAnimationLimitError, Hashable, Sendable, CustomStringConvertible {
        /// The data is empty.
        case emptyData
        /// libjxl rejected the data; the message says at which step.
        case invalidData(message: String)
        /// The data ends before the image (or the frame asked for) does.
        case truncatedData
        /// The image, or one of its frames, is larger than ``Configuration/maximumPixelCount``.
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)
        /// The file has more frames than ``Configuration/maximumFrameCount``.
        case tooManyFrames(maximumFrameCount: Int)
        /// A pass over the animation would produce more than ``Configuration/maximumTotalPixelCount`` pixels.
        case animationTooLarge(maximumTotalPixelCount: Int)
        /// A frame index outside the animation.
        case frameIndexOutOfRange(index: Int, frameCount: Int)
        /// libjxl could not allocate a decoder.
        case outOfMemory

        /// The message, beginning "JPEG XL decoding failed".
        public var description: String {
            switch self {
            case .emptyData:
                "JPEG XL decoding failed: the data is empty"
            case let .invalidData(message):
                "JPEG XL decoding failed: \(message)"
            case .truncatedData:
                "JPEG XL decoding failed: the data is truncated"
            case let .imageTooLarge(width, height, maximumPixelCount):
                "JPEG XL decoding failed: the image is \(width)×\(height) pixels, more than the maximum of "
                    + "\(maximumPixelCount) pixels"
            case let .tooManyFrames(maximumFrameCount):
                "JPEG XL decoding failed: the file has more than the maximum of \(maximumFrameCount) frames"
            case let .animationTooLarge(maximumTotalPixelCount):
                "JPEG XL decoding failed: the animation's frames total more than the maximum of "
                    + "\(maximumTotalPixelCount) pixels"
            case let .frameIndexOutOfRange(index, frameCount):
                "JPEG XL decoding failed: frame \(index) requested from an animation of \(frameCount) frames"
            case .outOfMemory:
                "JPEG XL decoding failed: out of memory"
            }
        }
    }
}
