public import NukeCore

extension ImageDecoders.JPEG {
    /// The limits and options of ``ImageDecoders/JPEG``.
    public struct Configuration: ImageDecoderConfiguration {
        /// The largest image, in pixels (width × height of the encoded image, before any scaling), that the
        /// decoder accepts. Checked from the header before any pixel memory is allocated. The default is
        /// 100 megapixels (400 MB decoded).
        public var maximumPixelCount: Int

        /// The largest number of scans a file may have. A progressive file can repeat scans to make decoding
        /// arbitrarily slow; real progressive files have about ten. The default is 1000.
        public var maximumScanCount: Int

        /// Whether the EXIF orientation is applied to the pixels. The default is `true`.
        public var appliesOrientation: Bool

        /// Creates a configuration.
        public init(
            maximumPixelCount: Int = Self.defaultMaximumPixelCount, maximumScanCount: Int = 1000,
            appliesOrientation: Bool = true
        ) {
            self.maximumPixelCount = maximumPixelCount
            self.maximumScanCount = maximumScanCount
            self.appliesOrientation = appliesOrientation
        }

        /// Creates the default configuration.
        public init() {
            self.init(maximumPixelCount: Self.defaultMaximumPixelCount)
        }
    }

    /// Why JPEG data could not be decoded. The description names the format and, where there is one,
    /// libjpeg's own message.
    public enum Error: ImageDecodingSizeError, Hashable, Sendable, CustomStringConvertible {
        /// The data is empty.
        case emptyData
        /// libjpeg rejected the data; the message is libjpeg's.
        case invalidData(message: String)
        /// The data ends before the image does (libjpeg's message).
        case truncatedData(message: String)
        /// The header declares more pixels than ``Configuration/maximumPixelCount``.
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)
        /// The image uses a colour space other than grayscale, RGB/YCbCr or CMYK/YCCK.
        case unsupportedColorSpace(componentCount: Int)
        /// Memory for the decoder could not be allocated.
        case outOfMemory

        public var description: String {
            switch self {
            case .emptyData:
                "JPEG decoding failed: the data is empty"
            case let .invalidData(message):
                "JPEG decoding failed: \(message)"
            case let .truncatedData(message):
                "JPEG decoding failed: the data is truncated (\(message))"
            case let .imageTooLarge(width, height, maximumPixelCount):
                "JPEG decoding failed: the image is \(width)×\(height) pixels, more than the maximum of "
                    + "\(maximumPixelCount) pixels"
            case let .unsupportedColorSpace(componentCount):
                "JPEG decoding failed: unsupported colour space with \(componentCount) components"
            case .outOfMemory:
                "JPEG decoding failed: out of memory"
            }
        }
    }
}
