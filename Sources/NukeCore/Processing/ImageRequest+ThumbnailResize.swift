extension ImageRequest.ThumbnailOptions {
    /// Makes the thumbnail of an already decoded image: the fallback for codecs that cannot scale while
    /// decoding, and the finishing step for codecs that decode at an intermediate size (such as JPEG's 1/2,
    /// 1/4 and 1/8 DCT scaling).
    ///
    /// The output has ``targetPixelSize(width:height:scale:)`` pixels, computed with the same filter as
    /// ``ImageProcessors/Resize``; an image that is already small enough is returned unchanged (thumbnails
    /// never upscale). The output keeps the image's scale. Safe to call from any thread.
    ///
    /// Nuke's `makeThumbnail(with: Data)` has no counterpart here: NukeCore has no codecs, so decoding is
    /// up to the decoders, which read ``ImageRequest/thumbnail`` themselves.
    ///
    /// - Parameters:
    ///   - image: The decoded image.
    ///   - scale: Ignored, kept so existing callers compile: sizes are converted to pixels when the options
    ///     are created (see ``ImageProcessingOptions/Unit/points``).
    /// - Throws: ``ImageProcessingError/invalidTargetSize(width:height:)`` when the options ask for a
    ///   zero, negative or non-finite size.
    public func makeThumbnail(from image: PlatformImage, scale: Float? = nil) throws -> PlatformImage {
        switch target {
        case let .maxPixelSize(size):
            guard size.isFinite, size > 0 else {
                throw ImageProcessingError.invalidTargetSize(width: Double(size), height: Double(size))
            }
        case let .size(width, height, _):
            guard width.isFinite, width > 0, height.isFinite, height > 0 else {
                throw ImageProcessingError.invalidTargetSize(width: Double(width), height: Double(height))
            }
        }
        guard !image.isEmpty else { return image }
        let size = targetPixelSize(width: image.width, height: image.height)
        guard size.width != image.width || size.height != image.height else { return image }
        return image.resampled(width: size.width, height: size.height)
    }
}
