public import NukeCore

extension ImageDecoders.WebP {
    /// The limits of ``ImageDecoders/WebP``.
    public struct Configuration: ImageDecoderConfiguration {
        /// The largest image or animation canvas, in pixels (width × height), that the decoder accepts.
        /// Checked from the header before any pixel memory is allocated. The default is 100 megapixels.
        public var maximumPixelCount: Int

        /// Creates a configuration.
        public init(maximumPixelCount: Int) {
            self.maximumPixelCount = maximumPixelCount
        }

        /// Creates the default configuration.
        public init() {
            self.init(maximumPixelCount: Self.defaultMaximumPixelCount)
        }
    }

    /// Why WebP data could not be decoded. The description names the format and libwebp's status.
    public enum Error: ImageDecodingSizeError, Hashable, Sendable, CustomStringConvertible {
        /// The data is empty.
        case emptyData
        /// libwebp rejected the data; the message names libwebp's status code.
        case invalidData(message: String)
        /// The data ends before the image does.
        case truncatedData
        /// The header declares more pixels than ``Configuration/maximumPixelCount``.
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)
        /// A frame index outside the animation.
        case frameIndexOutOfRange(index: Int, frameCount: Int)
        /// libwebp could not allocate memory.
        case outOfMemory

        public var description: String {
            switch self {
            case .emptyData:
                "WebP decoding failed: the data is empty"
            case let .invalidData(message):
                "WebP decoding failed: \(message)"
            case .truncatedData:
                "WebP decoding failed: the data is truncated (VP8_STATUS_NOT_ENOUGH_DATA)"
            case let .imageTooLarge(width, height, maximumPixelCount):
                "WebP decoding failed: the image is \(width)×\(height) pixels, more than the maximum of "
                    + "\(maximumPixelCount) pixels"
            case let .frameIndexOutOfRange(index, frameCount):
                "WebP decoding failed: frame \(index) requested from an animation of \(frameCount) frames"
            case .outOfMemory:
                "WebP decoding failed: out of memory (VP8_STATUS_OUT_OF_MEMORY)"
            }
        }
    }
}
