extension PlatformImage {
    /// Creates an image whose pixels `initializer` writes straight into the image's own storage, so a codec can
    /// decode without an intermediate buffer or a copy.
    ///
    /// The dimensions are validated first; when they are invalid the initializer throws before anything is
    /// allocated and `initializer` is not called. Otherwise `initializer` is called exactly once, synchronously,
    /// with a buffer of exactly `width * 4 * height` bytes: RGBA rows, top to bottom, each `width * 4` bytes long
    /// (the resulting ``bytesPerRow``). The buffer's initial contents are unspecified, so `initializer` must
    /// write every byte or throw; the buffer is valid only during the call. An error thrown by `initializer` is
    /// rethrown and the storage is released.
    ///
    /// ```swift
    /// let image = try PlatformImage(width: 2, height: 1, isPremultiplied: false) { pixels in
    ///     pixels.copyBytes(from: [255, 0, 0, 255, 0, 0, 255, 128])  // opaque red, half-transparent blue
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - width: The width in pixels; positive.
    ///   - height: The height in pixels; positive.
    ///   - scale: The image's ``scale``; positive and finite.
    ///   - isPremultiplied: Pass `false` when `initializer` writes straight (unassociated) alpha; the image
    ///     premultiplies it in place afterwards.
    ///   - isOpaque: The ``isOpaque`` hint of the result. Pass `true` only when every alpha byte is 255.
    ///   - initializer: Writes the pixels, row by row with no padding (`width * 4` bytes a row), into the buffer
    ///     it is given, which starts zeroed; called once, before the initializer returns.
    /// - Throws: ``PlatformImage/Error`` for invalid dimensions or scale, or the error `initializer` throws.
    public init(
        width: Int,
        height: Int,
        scale: Double = 1,
        isPremultiplied: Bool = true,
        isOpaque: Bool = false,
        initializingPixelsWith initializer: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws {
        _ = try Self.validate(width: width, height: height, scale: scale)
        try self.init(
            unchecked: width, height: height, scale: scale, isOpaque: isOpaque, initializingPixelsWith: initializer)
        if !isPremultiplied && !isOpaque {
            premultiplyInPlace()
        }
    }
}
