extension ImageRequest.ThumbnailOptions {
    /// The pixel size at which to render a resolution-independent (vector) image whose intrinsic size is
    /// `width`×`height`, keeping its aspect ratio.
    ///
    /// Unlike ``targetPixelSize(width:height:scale:)`` it scales up as well as down, since a vector image has
    /// no pixels to lose: a 24×24 icon asked for with `maxPixelSize: 256` renders at 256×256. Each side is
    /// at least one pixel. Returns `nil` when a dimension is not a positive finite number or the result
    /// doesn't fit in an `Int`.
    ///
    /// - Parameters:
    ///   - width: The image's intrinsic width.
    ///   - height: The image's intrinsic height.
    ///   - scale: Ignored, kept so existing callers compile: sizes are converted to pixels when the options are
    ///     created (see ``ImageProcessingOptions/Unit/points``).
    public func vectorPixelSize(width: Double, height: Double, scale: Float = 1) -> (width: Int, height: Int)? {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        let factor = scaleFactor(width: width, height: height)
        let newWidth = (width * factor).rounded()
        let newHeight = (height * factor).rounded()
        let limit = Double(Int32.max)
        guard factor.isFinite, factor > 0, newWidth <= limit, newHeight <= limit else { return nil }
        return (max(1, Int(newWidth)), max(1, Int(newHeight)))
    }
}
