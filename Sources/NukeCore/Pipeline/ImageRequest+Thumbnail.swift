public import Foundation

extension ImageRequest {
    /// Asks the decoder to produce a smaller image directly, which is much faster and uses far less memory
    /// than decoding the full image and resizing it.
    ///
    /// Codecs that can scale while decoding (JPEG, WebP, SVG) use it directly; the others decode the full
    /// image and the pipeline resizes it. The thumbnail is part of the decode key, so requests for different
    /// thumbnails of the same URL share the download but not the decode.
    public struct ThumbnailOptions: Hashable, Sendable, CustomStringConvertible {
        enum Target: Hashable, Sendable {
            case maxPixelSize(Float)
            case size(
                width: Float, height: Float, unit: ImageProcessingOptions.Unit, ImageProcessingOptions.ContentMode)
        }

        let target: Target

        /// Fits the image in a square of `maxPixelSize` pixels, keeping its aspect ratio.
        public init(maxPixelSize: Float) {
            self.target = .maxPixelSize(maxPixelSize)
        }

        /// Scales the image to `size` (in `unit`) with the given content mode, keeping its aspect ratio.
        public init(
            size: CGSize,
            unit: ImageProcessingOptions.Unit = .points,
            contentMode: ImageProcessingOptions.ContentMode = .aspectFill
        ) {
            self.target = .size(width: Float(size.width), height: Float(size.height), unit: unit, contentMode)
        }

        /// A stable string that describes the options, used in cache keys.
        public var identifier: String {
            switch target {
            case let .maxPixelSize(size):
                "com.github/kean/nuke/thumbnail?maxPixelSize=\(size)"
            case let .size(width, height, unit, contentMode):
                "com.github/kean/nuke/thumbnail?width=\(width),height=\(height),unit=\(unit),contentMode=\(contentMode)"
            }
        }

        public var description: String { identifier }

        /// The pixel size of the thumbnail of a `width`×`height` pixel image, keeping the aspect ratio and
        /// never upscaling or producing a side smaller than one pixel.
        ///
        /// - Parameter scale: Converts a size given in points to pixels.
        public func targetPixelSize(width: Int, height: Int, scale: Float = 1) -> (width: Int, height: Int) {
            guard width > 0, height > 0 else { return (width, height) }
            let factor: Double
            switch target {
            case let .maxPixelSize(size):
                factor = Double(size) / Double(max(width, height))
            case let .size(targetWidth, targetHeight, unit, contentMode):
                let multiplier = unit == .points ? Double(scale) : 1
                let scaleX = Double(targetWidth) * multiplier / Double(width)
                let scaleY = Double(targetHeight) * multiplier / Double(height)
                factor = contentMode == .aspectFill ? max(scaleX, scaleY) : min(scaleX, scaleY)
            }
            guard factor.isFinite, factor < 1 else { return (width, height) }
            let newWidth = max(1, Int((Double(width) * factor).rounded()))
            let newHeight = max(1, Int((Double(height) * factor).rounded()))
            return (min(newWidth, width), min(newHeight, height))
        }
    }
}

/// Options shared by processors and thumbnails.
public enum ImageProcessingOptions: Sendable {
    /// The unit of a target size.
    public enum Unit: String, Hashable, Sendable, CustomStringConvertible {
        /// Points: multiplied by the request's scale to get pixels.
        case points
        /// Pixels.
        case pixels

        public var description: String { rawValue }
    }

    /// How an image is fitted into a target size.
    public enum ContentMode: String, Hashable, Sendable, CustomStringConvertible {
        /// Scale to fill the target size; one side may be larger than the target.
        case aspectFill
        /// Scale to fit within the target size; one side may be smaller than the target.
        case aspectFit

        public var description: String { rawValue }
    }
}
