public import Foundation
public import NukeCore

extension ImageDecoders.SVG {
    /// The limits and defaults of ``ImageDecoders/SVG``.
    public struct Configuration: ImageDecoderConfiguration {
        /// The largest render, in pixels (width × height). Checked before any pixel memory is allocated.
        /// The default is 100 megapixels.
        public var maximumPixelCount: Int

        /// The size, in pixels, of a document that declares neither an absolute width and height nor a
        /// `viewBox`. The default is 300×150, the size browsers give such documents.
        public var defaultSize: CGSize

        /// The resolution used to convert physical units (in, cm, mm, pt, pc) to pixels. Default 96.
        public var dpi: Double

        /// Creates a configuration.
        public init(
            maximumPixelCount: Int = Self.defaultMaximumPixelCount,
            defaultSize: CGSize = CGSize(width: 300, height: 150),
            dpi: Double = 96
        ) {
            self.maximumPixelCount = maximumPixelCount
            self.defaultSize = defaultSize
            self.dpi = dpi
        }

        /// Creates the default configuration.
        public init() {
            self.init(maximumPixelCount: Self.defaultMaximumPixelCount)
        }
    }

    /// Why an SVG document could not be rendered. The description names the format and librsvg's message.
    public enum Error: ImageDecodingSizeError, Hashable, Sendable, CustomStringConvertible {
        /// The data is empty.
        case emptyData
        /// librsvg could not load the document; the message is librsvg's.
        case invalidData(message: String)
        /// The render size is more than ``Configuration/maximumPixelCount`` pixels or more than 32767
        /// pixels a side (`Int.max` when it doesn't fit in an integer).
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)
        /// librsvg or cairo failed while rendering; the message is theirs.
        case renderingFailed(message: String)

        public var description: String {
            switch self {
            case .emptyData:
                "SVG decoding failed: the data is empty"
            case let .invalidData(message):
                "SVG decoding failed: \(message)"
            case let .imageTooLarge(width, height, maximumPixelCount):
                "SVG decoding failed: the render size \(width)×\(height) exceeds the maximum of "
                    + "\(maximumPixelCount) pixels or 32767 pixels a side"
            case let .renderingFailed(message):
                "SVG rendering failed: \(message)"
            }
        }
    }
}
