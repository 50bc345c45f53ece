import Foundation
public import NukeCore

/// The processing of a request's options as one pipeline processor: imgproxy's geometry (``ResizePlan``: scale and
/// crop in one resampling pass), then the blur, then Nuke's circle and rounded corners. Its identifier is the
/// options' canonical form without what only the encoder uses (format, quality), so requests that differ only in
/// format share one processed image in the pipeline's memory cache and coalesce.
public struct ServeProcessor: ImageProcessing, Hashable, CustomStringConvertible {
    /// The options, with `format` and `quality` cleared.
    public let options: ProcessingOptions
    /// The largest width or height of a result; a larger one fails with
    /// `ImageProcessingError.outputTooLarge(width:height:)`.
    public let maximumResultDimension: Int

    /// Makes the processor of `options`.
    public init(options: ProcessingOptions, maximumResultDimension: Int = ProcessingOptions.maximumDimension) {
        var options = options
        options.format = nil
        options.quality = nil
        self.options = options
        self.maximumResultDimension = maximumResultDimension
    }

    /// Whether the processor changes nothing whatever the image (no size, dpr 1, no effects).
    public var isIdentity: Bool {
        options.width == 0 && options.height == 0 && options.dpr == 1 && (options.blurSigma ?? 0) == 0
            && !options.circle && (options.roundedCornerRadius ?? 0) == 0
    }

    /// The thumbnail to ask the decoder for, so that it decodes at a reduced size (JPEG's 1/2, 1/4 and 1/8 DCT
    /// scaling, WebP's scaler, SVG at its size) what ``processed(_:)`` would shrink anyway; `nil` when that can't be
    /// told before the source's size is known.
    ///
    /// It asks for the size the plan scales to: `fit` fits the image in the asked size (times `dpr`), `fill` and
    /// `fill-down` cover it, and a side of `0` follows the other. The decoded image then has that size (within a
    /// pixel of rounding: the decoder measures the reduced image, as imgproxy's shrink-on-load does), so the plan
    /// computed from it only crops; thumbnails never enlarge. `auto`, whose choice between fit and fill depends on
    /// the source's orientation, and `force`, which scales each side by its own factor, get `nil`, as do options
    /// without a size.
    public var decodingThumbnail: ImageRequest.ThumbnailOptions? {
        guard options.width > 0 || options.height > 0 else { return nil }
        let contentMode: ImageProcessingOptions.ContentMode
        switch options.resizingType {
        case .fit: contentMode = .aspectFit
        case .fill, .fillDown: contentMode = options.width > 0 && options.height > 0 ? .aspectFill : .aspectFit
        case .force, .auto: return nil
        }
        // A side of 0 follows the other: a side too large to bind (the fit takes the other one's factor).
        let unbounded = 1e9
        let width = options.width > 0 ? Double(options.width) * options.dpr : unbounded
        let height = options.height > 0 ? Double(options.height) * options.dpr : unbounded
        return ImageRequest.ThumbnailOptions(
            size: CGSize(width: width, height: height), unit: .pixels, contentMode: contentMode)
    }

    public var identifier: String {
        "com.github.kean/nuke/serve?" + options.canonicalDescription
    }

    public var description: String {
        "ServeProcessor(\(options.canonicalDescription))"
    }

    /// Returns the processed image, or `nil` when a step fails.
    public func process(_ image: PlatformImage) -> PlatformImage? {
        try? processed(image)
    }

    /// Processes the container's still image (an animated source's first frame); throws an `ImageProcessingError`
    /// naming the problem.
    public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
        try container.map(processed)
    }

    /// The image after every step.
    public func processed(_ image: PlatformImage) throws(ImageProcessingError) -> PlatformImage {
        guard !image.isEmpty else { throw .emptyImage }
        let plan = ResizePlan(sourceWidth: image.width, sourceHeight: image.height, options: options)
        guard plan.resultWidth <= maximumResultDimension, plan.resultHeight <= maximumResultDimension else {
            throw .outputTooLarge(width: Double(plan.resultWidth), height: Double(plan.resultHeight))
        }
        var output = image
        if !plan.isIdentity {
            let scaleX = Double(image.width) / Double(plan.scaledWidth)
            let scaleY = Double(image.height) / Double(plan.scaledHeight)
            let region = CGRect(
                x: Double(plan.crop.x) * scaleX, y: Double(plan.crop.y) * scaleY,
                width: Double(plan.crop.width) * scaleX, height: Double(plan.crop.height) * scaleY)
            output = try output.resampled(toWidth: plan.resultWidth, height: plan.resultHeight, from: region)
        }
        if let sigma = options.blurSigma, sigma >= 0.5 {
            output = try Self.apply(ImageProcessors.GaussianBlur(radius: Int(sigma.rounded())), to: output)
        }
        if options.circle {
            output = try Self.apply(ImageProcessors.Circle(), to: output)
        }
        if let radius = options.roundedCornerRadius, radius > 0 {
            let radius = CGFloat(radius * options.dpr)
            output = try Self.apply(ImageProcessors.RoundedCorners(radius: radius, unit: .pixels), to: output)
        }
        return output
    }

    private static func apply(
        _ processor: some ImageProcessing, to image: PlatformImage
    ) throws(ImageProcessingError) -> PlatformImage {
        guard let result = processor.process(image) else { throw .processingFailed }
        return result
    }
}
