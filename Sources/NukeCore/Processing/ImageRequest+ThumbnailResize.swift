extension ImageRequest.ThumbnailOptions {
    /// Makes the thumbnail of an already decoded image: the fallback for codecs that cannot scale while
    /// decoding, and the finishing step for codecs that decode at an intermediate size (such as JPEG's 1/2,
    /// 1/4 and 1/8 DCT scaling).
    ///
    /// The output has ``targetPixelSize(width:height:scale:)`` pixels, computed with the same filter as
    /// ``ImageProcessors/Resize``; an image that is already small enough is returned unchanged (thumbnails
    /// never upscale). The output keeps the image's scale. Safe to call from any thread.
    ///
    /// - Parameters:
    ///   - image: The decoded image.
    ///   - scale: Converts a size given in points to pixels; `nil` uses the image's
    ///     ``PlatformImage/scale``.
    /// - Throws: ``ImageProcessingError/invalidTargetSize(width:height:)`` when the options ask for a
    ///   zero, negative or non-finite size, ``ImageProcessingError/invalidParameter(name:value:)`` for a
    ///   non-positive scale.
    public func makeThumbnail(from image: PlatformImage, scale: Float? = nil) throws -> PlatformImage {
        switch target {
        case let .maxPixelSize(size):
            guard size.isFinite, size > 0 else {
                throw ImageProcessingError.invalidTargetSize(width: Double(size), height: Double(size))
            }
        case let .size(width, height, _, _):
            guard width.isFinite, width > 0, height.isFinite, height > 0 else {
                throw ImageProcessingError.invalidTargetSize(width: Double(width), height: Double(height))
            }
        }
        let scale = scale ?? Float(image.scale)
        guard scale.isFinite, scale > 0 else {
            throw ImageProcessingError.invalidParameter(name: "scale", value: Double(scale))
        }
        guard !image.isEmpty else { return image }
        let size = targetPixelSize(width: image.width, height: image.height, scale: scale)
        guard size.width != image.width || size.height != image.height else { return image }
        return image.resampled(width: size.width, height: size.height)
    }
}
