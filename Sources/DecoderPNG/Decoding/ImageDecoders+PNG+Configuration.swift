public import NukeCore

extension ImageDecoders.PNG {
    /// The limits of ``ImageDecoders/PNG``.
    public struct Configuration: ImageDecoderConfiguration {
        /// The largest image, in pixels (width × height), that the decoder accepts. Checked from the header
        /// before any pixel memory is allocated. The default is 100 megapixels (400 MB decoded).
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

    /// Why PNG data could not be decoded. The description names the format and, where there is one,
    /// libpng's own message.
    public enum Error: ImageDecodingSizeError, Hashable, Sendable, CustomStringConvertible {
        /// The data is empty.
        case emptyData
        /// libpng rejected the data (corrupt, truncated or not PNG); the message is libpng's.
        case invalidData(message: String)
        /// The header declares more pixels than ``Configuration/maximumPixelCount``.
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)

        public var description: String {
            switch self {
            case .emptyData:
                "PNG decoding failed: the data is empty"
            case let .invalidData(message):
                "PNG decoding failed: \(message)"
            case let .imageTooLarge(width, height, maximumPixelCount):
                "PNG decoding failed: the image is \(width)×\(height) pixels, more than the maximum of "
                    + "\(maximumPixelCount) pixels"
            }
        }
    }
}
