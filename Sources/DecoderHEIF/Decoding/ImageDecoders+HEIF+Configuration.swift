public import NukeCore

extension ImageDecoders.HEIF {
    /// The limits of ``ImageDecoders/HEIF``, checked from the container before any image is decoded.
    public struct Configuration: ImageDecoderConfiguration {
        /// The largest image, in pixels (width × height, as displayed), and the largest canvas of a grid or
        /// overlay item and HEVC picture (as coded) in the file. The default is 100 megapixels (400 MB decoded). A
        /// side of this many pixels or more is also refused by libheif while it reads the container.
        public var maximumPixelCount: Int

        /// Creates a configuration.
        public init(maximumPixelCount: Int = Self.defaultMaximumPixelCount) {
            self.maximumPixelCount = maximumPixelCount
        }

        /// Creates the default configuration.
        public init() {
            self.init(maximumPixelCount: Self.defaultMaximumPixelCount)
        }
    }

    /// Why HEIF data could not be decoded. The description names the format and libheif's message.
    public enum Error: ImageDecodingSizeError, Hashable, Sendable, CustomStringConvertible {
        /// The data is empty.
        case emptyData
        /// libheif rejected the data; the message is libheif's.
        case invalidData(message: String)
        /// The data ends before the image does; the message is libheif's.
        case truncatedData(message: String)
        /// The file needs something libheif can't do (an unknown codec or an unsupported kind of item); the
        /// message is libheif's.
        case unsupportedFeature(message: String)
        /// libheif's own safety limits refused the file (for example an image side over its maximum, or too many
        /// items); the message is libheif's.
        case limitExceeded(message: String)
        /// The image is larger than ``Configuration/maximumPixelCount``.
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)
        /// libheif could not allocate memory.
        case outOfMemory

        /// A sentence naming the format and the reason.
        public var description: String {
            switch self {
            case .emptyData:
                "HEIF decoding failed: the data is empty"
            case let .invalidData(message):
                "HEIF decoding failed: \(message)"
            case let .truncatedData(message):
                "HEIF decoding failed: the data is truncated (\(message))"
            case let .unsupportedFeature(message):
                "HEIF decoding failed: unsupported (\(message))"
            case let .limitExceeded(message):
                "HEIF decoding failed: over libheif's limits (\(message))"
            case let .imageTooLarge(width, height, maximumPixelCount):
                "HEIF decoding failed: the image is \(width)×\(height) pixels, more than the maximum of "
                    + "\(maximumPixelCount) pixels"
            case .outOfMemory:
                "HEIF decoding failed: out of memory"
            }
        }
    }
}
