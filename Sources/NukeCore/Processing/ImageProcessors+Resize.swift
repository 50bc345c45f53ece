public import Foundation

extension ImageProcessors {
    /// Scales an image to a target size, keeping its aspect ratio, with high-quality filtering.
    ///
    /// The target is in points by default; points become pixels with the image's
    /// ``PlatformImage/scale`` (which the pipeline sets from the request's scale), so
    /// `Resize(size: CGSize(width: 100, height: 100))` of a scale-2 image targets 200 × 200 pixels. The output
    /// keeps the input's scale.
    ///
    /// - `.aspectFit`: the output fits inside the target; one side may be shorter.
    /// - `.aspectFill`: the output covers the target; one side may be longer. With `crop: true` the output
    ///   is then cropped around its centre to exactly the target size. `crop` has no effect with
    ///   `.aspectFit`.
    /// - Images already smaller than the target are returned unchanged unless `upscale` is `true`; with
    ///   `crop`, they are only cropped to at most the target size.
    ///
    /// Sides are rounded to whole pixels and never become smaller than one pixel. Shrinking averages every
    /// input pixel (a box reduction followed by a Lanczos-3 filter widened to the remaining factor), so fine
    /// patterns do not alias, the image centre does not move and transparent edges get no dark halo: the
    /// filter works on premultiplied alpha. Large images are split across all cores.
    ///
    /// Processing throws ``ImageProcessingError/emptyImage`` for an image without pixels,
    /// ``ImageProcessingError/invalidTargetSize(width:height:)`` for a zero, negative or non-finite target
    /// and ``ImageProcessingError/outputTooLarge(width:height:)`` when upscaling past
    /// ``PlatformImage/maximumPixelCount``. The processor is a value type, safe to use from any thread.
    ///
    /// ```swift
    /// let request = ImageRequest(url: url, processors: [.resize(width: 320)])
    /// ```
    public struct Resize: ImageProcessing, Hashable, CustomStringConvertible {
        /// Which sides of the target constrain the output.
        private enum Fit: Hashable {
            case size, width, height
        }

        private let width: Double
        private let height: Double
        private let unit: ImageProcessingOptions.Unit
        private let contentMode: ImageProcessingOptions.ContentMode
        private let crop: Bool
        private let upscale: Bool
        private let fit: Fit

        /// Creates a processor that scales images to `size`.
        ///
        /// - Parameters:
        ///   - size: The target size.
        ///   - unit: The unit of `size`; points are multiplied by the image's scale.
        ///   - contentMode: Whether the output fits inside or covers the target.
        ///   - crop: With `.aspectFill`, crops the output to exactly the target size around its centre.
        ///   - upscale: Allows making images larger; `false` by default.
        public init(
            size: CGSize,
            unit: ImageProcessingOptions.Unit = .points,
            contentMode: ImageProcessingOptions.ContentMode = .aspectFill,
            crop: Bool = false,
            upscale: Bool = false
        ) {
            self.init(
                width: Double(size.width), height: Double(size.height), unit: unit, contentMode: contentMode,
                crop: crop, upscale: upscale, fit: .size)
        }

        /// Creates a processor that scales images to `width`, keeping the aspect ratio.
        ///
        /// - Parameters:
        ///   - width: The target width.
        ///   - unit: The unit of `width`; points are multiplied by the image's scale.
        ///   - upscale: Allows making images larger; `false` by default.
        public init(width: CGFloat, unit: ImageProcessingOptions.Unit = .points, upscale: Bool = false) {
            self.init(
                width: Double(width), height: .infinity, unit: unit, contentMode: .aspectFit, crop: false,
                upscale: upscale, fit: .width)
        }

        /// Creates a processor that scales images to `height`, keeping the aspect ratio.
        ///
        /// - Parameters:
        ///   - height: The target height.
        ///   - unit: The unit of `height`; points are multiplied by the image's scale.
        ///   - upscale: Allows making images larger; `false` by default.
        public init(height: CGFloat, unit: ImageProcessingOptions.Unit = .points, upscale: Bool = false) {
            self.init(
                width: .infinity, height: Double(height), unit: unit, contentMode: .aspectFit, crop: false,
                upscale: upscale, fit: .height)
        }

        private init(
            width: Double, height: Double, unit: ImageProcessingOptions.Unit,
            contentMode: ImageProcessingOptions.ContentMode, crop: Bool, upscale: Bool, fit: Fit
        ) {
            self.width = width
            self.height = height
            self.unit = unit
            self.contentMode = contentMode
            self.crop = crop
            self.upscale = upscale
            self.fit = fit
        }

        /// Returns the resized image, or `nil` when the image is empty or the target size is invalid.
        public func process(_ image: PlatformImage) -> PlatformImage? {
            try? resized(image)
        }

        /// Resizes the container's image; throws an ``ImageProcessingError`` that names the problem.
        public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
            try container.map(resized)
        }

        /// The resized image; see the type's documentation for the rules and errors.
        func resized(_ image: PlatformImage) throws -> PlatformImage {
            guard !image.isEmpty else { throw ImageProcessingError.emptyImage }
            let multiplier = unit == .points ? image.scale : 1
            let targetWidth = width * multiplier
            let targetHeight = height * multiplier
            let widthIsValid = fit == .height || (targetWidth.isFinite && targetWidth > 0)
            let heightIsValid = fit == .width || (targetHeight.isFinite && targetHeight > 0)
            guard widthIsValid, heightIsValid else {
                throw ImageProcessingError.invalidTargetSize(width: targetWidth, height: targetHeight)
            }
            if crop && contentMode == .aspectFill && fit == .size {
                return try resizedAndCropped(image, width: targetWidth, height: targetHeight)
            }
            let scaleX = targetWidth / Double(image.width)
            let scaleY = targetHeight / Double(image.height)
            let factor = contentMode == .aspectFill ? max(scaleX, scaleY) : min(scaleX, scaleY)
            guard factor < 1 || upscale else { return image }
            let outputWidth = max(1, (Double(image.width) * factor).rounded())
            let outputHeight = max(1, (Double(image.height) * factor).rounded())
            try Self.validateOutput(width: outputWidth, height: outputHeight)
            if Int(outputWidth) == image.width && Int(outputHeight) == image.height {
                return image
            }
            return image.resampled(width: Int(outputWidth), height: Int(outputHeight))
        }

        private func resizedAndCropped(_ image: PlatformImage, width: Double, height: Double) throws -> PlatformImage {
            let targetWidth = max(1, width.rounded())
            let targetHeight = max(1, height.rounded())
            let imageWidth = Double(image.width)
            let imageHeight = Double(image.height)
            let factor = max(targetWidth / imageWidth, targetHeight / imageHeight)
            if factor >= 1 && !upscale {
                let cropWidth = Int(min(targetWidth, imageWidth))
                let cropHeight = Int(min(targetHeight, imageHeight))
                return image.cropped(
                    x: (image.width - cropWidth) / 2, y: (image.height - cropHeight) / 2,
                    width: cropWidth, height: cropHeight)
            }
            try Self.validateOutput(width: targetWidth, height: targetHeight)
            let regionWidth = min(imageWidth, targetWidth / factor)
            let regionHeight = min(imageHeight, targetHeight / factor)
            let region = PixelRegion(
                x: (imageWidth - regionWidth) / 2, y: (imageHeight - regionHeight) / 2,
                width: regionWidth, height: regionHeight)
            return image.resampled(region: region, width: Int(targetWidth), height: Int(targetHeight))
        }

        private static func validateOutput(width: Double, height: Double) throws {
            guard width.isFinite, height.isFinite, width * height <= Double(PlatformImage.maximumPixelCount) else {
                throw ImageProcessingError.outputTooLarge(width: width, height: height)
            }
        }

        /// A side length no image reaches, for the free side of a width- or height-only resize (finite, so the
        /// thumbnail options accept it).
        private static let unbounded = Double(Int32.max)

        /// The same resize as decoding options, so a codec that scales while decoding (JPEG's DCT scaling, WebP,
        /// SVG) can produce the resized image directly when this is the request's first processor.
        var decodingHint: ImageRequest.ThumbnailOptions? {
            let isValid: (Double) -> Bool = { $0.isFinite && $0 > 0 }
            guard fit == .height || isValid(width), fit == .width || isValid(height) else {
                return nil  // The resize itself reports the invalid size.
            }
            return switch fit {
            case .size:
                ImageRequest.ThumbnailOptions(
                    size: CGSize(width: width, height: height), unit: unit, contentMode: contentMode)
            case .width:
                ImageRequest.ThumbnailOptions(
                    size: CGSize(width: width, height: Self.unbounded), unit: unit, contentMode: .aspectFit)
            case .height:
                ImageRequest.ThumbnailOptions(
                    size: CGSize(width: Self.unbounded, height: height), unit: unit, contentMode: .aspectFit)
            }
        }

        /// A stable string naming the target, unit, content mode and flags (part of disk cache keys).
        public var identifier: String {
            var identifier = "com.github.kean/nuke/resize?"
            switch fit {
            case .size:
                identifier += "s=(\(width), \(height)),unit=\(unit),cm=\(contentMode),crop=\(crop)"
            case .width:
                identifier += "w=\(width),unit=\(unit)"
            case .height:
                identifier += "h=\(height),unit=\(unit)"
            }
            return identifier + ",upscale=\(upscale)"
        }

        public var description: String {
            switch fit {
            case .size:
                "Resize(size: \(width)×\(height) \(unit), contentMode: \(contentMode), crop: \(crop), "
                    + "upscale: \(upscale))"
            case .width:
                "Resize(width: \(width) \(unit), upscale: \(upscale))"
            case .height:
                "Resize(height: \(height) \(unit), upscale: \(upscale))"
            }
        }
    }
}
