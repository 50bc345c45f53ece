public import Foundation

extension ImageProcessors {
    /// Crops an image to a rectangle given in pixels (origin at the top-left corner).
    ///
    /// The rectangle's edges are rounded to whole pixels and clipped to the image. Processing throws
    /// ``ImageProcessingError/emptyImage`` for an image without pixels and
    /// ``ImageProcessingError/cropRectOutsideImage(_:)`` when nothing of the rectangle lies inside the image
    /// (or its coordinates are not finite). To crop to a target size around the centre while resizing, use
    /// ``ImageProcessors/Resize`` with `crop: true`.
    public struct Crop: ImageProcessing, Hashable, CustomStringConvertible {
        private let x: Double
        private let y: Double
        private let width: Double
        private let height: Double

        /// Creates a processor that crops to `rect` (in pixels).
        public init(rect: CGRect) {
            let rect = rect.standardized
            self.x = Double(rect.origin.x)
            self.y = Double(rect.origin.y)
            self.width = Double(rect.size.width)
            self.height = Double(rect.size.height)
        }

        /// The rectangle in pixels.
        public var rect: CGRect {
            CGRect(x: x, y: y, width: width, height: height)
        }

        /// Returns the cropped image, or `nil` when the image is empty or the rectangle misses it.
        public func process(_ image: PlatformImage) -> PlatformImage? {
            try? cropped(image)
        }

        /// Crops the container's image; throws an ``ImageProcessingError`` naming the problem.
        public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
            try container.map(cropped)
        }

        func cropped(_ image: PlatformImage) throws -> PlatformImage {
            guard !image.isEmpty else { throw ImageProcessingError.emptyImage }
            let bounds = [x, y, x + width, y + height]
            guard bounds.allSatisfy(\.isFinite) else { throw ImageProcessingError.cropRectOutsideImage(rect) }
            let left = Int(max(0, min(Double(image.width), x.rounded())))
            let top = Int(max(0, min(Double(image.height), y.rounded())))
            let right = Int(max(0, min(Double(image.width), (x + width).rounded())))
            let bottom = Int(max(0, min(Double(image.height), (y + height).rounded())))
            guard right > left, bottom > top else { throw ImageProcessingError.cropRectOutsideImage(rect) }
            return image.cropped(x: left, y: top, width: right - left, height: bottom - top)
        }

        /// A stable string naming the rectangle (part of disk cache keys).
        public var identifier: String {
            "com.github.kean/nuke/crop?rect=(\(x), \(y), \(width), \(height))"
        }

        public var description: String {
            "Crop(rect: (\(x), \(y), \(width), \(height)) pixels)"
        }
    }
}
