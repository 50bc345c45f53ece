public import Foundation

extension ImageProcessors {
    /// Scales an image to a target size, keeping its aspect ratio, with high-quality filtering.
    ///
    /// The target is in points by default. As in Nuke, it is converted to pixels when the processor is
    /// created; a point is one pixel on Linux (see ``ImageProcessingOptions/Unit/points``), so the same
    /// number in points and in pixels gives equal processors with equal identifiers. The output keeps the
    /// input's ``PlatformImage/scale``.
    ///
    /// - `.aspectFit`: the output fits inside the target; one side may be shorter.
    /// - `.aspectFill`: the output covers the target; one side may be longer. With `crop: true` the output
    ///   is then cropped around its centre to exactly the target size. `crop` has no effect with
    ///   `.aspectFit`.
    /// - Images already smaller than the target are returned unchanged unless `upscale` is `true`. With
    ///   `.aspectFill` and `crop: true`, an image that would have to be enlarged to fill the target is
    ///   instead cropped around its centre to the target's aspect ratio at its own resolution, as in Nuke:
    ///   a 640 × 480 image and a 1000 × 1000 target give 480 × 480.
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

        /// The target width in pixels, stored as a `Float` like Nuke does (it shows in the identifier).
        private let width: Float
        /// The target height in pixels.
        private let height: Float
        private let contentMode: ImageProcessingOptions.ContentMode
        private let crop: Bool
        private let upscale: Bool
        private let fit: Fit

        /// The side that `init(width:)` and `init(height:)` leave free, as Nuke records it in the identifier
        /// (and so in disk cache keys); ``fit`` keeps it from constraining the output.
        private static let placeholderSide: CGFloat = 9999

        /// Creates a processor that scales images to `size`.
        ///
        /// - Parameters:
        ///   - size: The target size.
        ///   - unit: The unit of `size`; points by default (one point is one pixel on Linux).
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
                width: size.width, height: size.height, unit: unit, contentMode: contentMode, crop: crop,
                upscale: upscale, fit: .size)
        }

        /// Creates a processor that scales images to `width`, keeping the aspect ratio.
        ///
        /// - Parameters:
        ///   - width: The target width.
        ///   - unit: The unit of `width`; points by default (one point is one pixel on Linux).
        ///   - upscale: Allows making images larger; `false` by default.
        public init(width: CGFloat, unit: ImageProcessingOptions.Unit = .points, upscale: Bool = false) {
            self.init(
                width: width, height: Self.placeholderSide, unit: unit, contentMode: .aspectFit, crop: false,
                upscale: upscale, fit: .width)
        }

        /// Creates a processor that scales images to `height`, keeping the aspect ratio.
        ///
        /// - Parameters:
        ///   - height: The target height.
        ///   - unit: The unit of `height`; points by default (one point is one pixel on Linux).
        ///   - upscale: Allows making images larger; `false` by default.
        public init(height: CGFloat, unit: ImageProcessingOptions.Unit = .points, upscale: Bool = false) {
            self.init(
                width: Self.placeholderSide, height: height, unit: unit, contentMode: .aspectFit, crop: false,
                upscale: upscale, fit: .height)
        }

        private init(
            width: CGFloat, height: CGFloat, unit: ImageProcessingOptions.Unit,
            contentMode: ImageProcessingOptions.ContentMode, crop: Bool, upscale: Bool, fit: Fit
        ) {
            self.width = Float(unit.pixels(width))
            self.height = Float(unit.pixels(height))
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
            let targetWidth = fit == .height ? .infinity : Double(width)
            let targetHeight = fit == .width ? .infinity : Double(height)
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
            if factor > 1 && !upscale {
                return croppedToAspectRatio(image, width: targetWidth, height: targetHeight)
            }
            try Self.validateOutput(width: targetWidth, height: targetHeight)
            let regionWidth = min(imageWidth, targetWidth / factor)
            let regionHeight = min(imageHeight, targetHeight / factor)
            let region = PixelRegion(
                x: (imageWidth - regionWidth) / 2, y: (imageHeight - regionHeight) / 2,
                width: regionWidth, height: regionHeight)
            return image.resampled(region: region, width: Int(targetWidth), height: Int(targetHeight))
        }

        /// The largest centred part of `image` with the aspect ratio of `width`×`height`, at the image's own
        /// resolution: what filling the target would show, without enlarging the image.
        private func croppedToAspectRatio(_ image: PlatformImage, width: Double, height: Double) -> PlatformImage {
            let imageWidth = Double(image.width)
            let imageHeight = Double(image.height)
            var cropWidth = image.width
            var cropHeight = image.height
            if imageWidth / imageHeight > width / height {
                cropWidth = Int(min(imageWidth, max(1, (imageHeight * width / height).rounded())))
            } else {
                cropHeight = Int(min(imageHeight, max(1, (imageWidth * height / width).rounded())))
            }
            guard cropWidth != image.width || cropHeight != image.height else { return image }
            return image.cropped(
                x: (image.width - cropWidth) / 2, y: (image.height - cropHeight) / 2, width: cropWidth,
                height: cropHeight)
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
            let isValid: (Float) -> Bool = { $0.isFinite && $0 > 0 }
            guard fit == .height || isValid(width), fit == .width || isValid(height) else {
                return nil  // The resize itself reports the invalid size.
            }
            let size =
                switch fit {
                case .size: CGSize(width: Double(width), height: Double(height))
                case .width: CGSize(width: Double(width), height: Self.unbounded)
                case .height: CGSize(width: Self.unbounded, height: Double(height))
                }
            return ImageRequest.ThumbnailOptions(size: size, unit: .pixels, contentMode: contentMode)
        }

        /// Nuke's identifier, for example
        /// `com.github.kean/nuke/resize?s=(320.0, 240.0),cm=.aspectFill,crop=false,upscale=false`, with the
        /// size in pixels (a `Float`, so `33.3` shows as `33.29999923706055`) and `9999.0` for the side that
        /// `init(width:)` or `init(height:)` leaves free. Stable: it is part of disk cache keys.
        public var identifier: String {
            "com.github.kean/nuke/resize?s=\(sizeDescription),cm=\(contentMode),crop=\(crop),upscale=\(upscale)"
        }

        /// Nuke's description, for example
        /// `Resize(size: (30.0, 30.0) pixels, contentMode: .aspectFit, crop: false, upscale: false)`.
        public var description: String {
            "Resize(size: \(sizeDescription) pixels, contentMode: \(contentMode), crop: \(crop), upscale: \(upscale))"
        }

        /// `(width, height)` in pixels, formatted like Nuke's `CGSize`.
        private var sizeDescription: String {
            "(\(Double(width)), \(Double(height)))"
        }
    }
}
