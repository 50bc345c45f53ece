public import Foundation
public import NukeCore

extension ImageDecoders.Default {
    /// The frames and timing of `data` as an ``ImageAnimation``, for every animated format with a codec here
    /// (GIF, WebP, AVIF sequences, JPEG XL), so one code path plays any of them; `nil` for other formats. A still
    /// GIF, WebP, AVIF or JPEG XL is an animation of one frame. Reads only the container; no pixel is decoded.
    ///
    /// ```swift
    /// let container = try await pipeline.imageTask(with: url).response.container
    /// if let data = container.data, let animation = try ImageDecoders.Default.animation(for: data),
    ///     animation.isAnimated
    /// {
    ///     try animation.forEachFrame { frame in show(frame.image, for: frame.duration) }
    /// }
    /// ```
    ///
    /// - Throws: The codec's error (``ImageDecoders/GIF/Error``, ``ImageDecoders/WebP/Error``,
    ///   ``ImageDecoders/AVIF/Error``, ``ImageDecoders/JXL/Error``) for data of that format that can't be read.
    public static func animation(for data: Data) throws -> (any ImageAnimation)? {
        switch AssetType(data) {
        case .gif: try ImageDecoders.GIF.Animation(data: data)
        case .webp: try ImageDecoders.WebP.Animation(data: data)
        case .avif: try ImageDecoders.AVIF.Animation(data: data)
        case .jxl: try ImageDecoders.JXL.Animation(data: data)
        default: nil
        }
    }
}
