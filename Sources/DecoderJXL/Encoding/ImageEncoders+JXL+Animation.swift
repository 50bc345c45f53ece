public import Foundation
public import NukeCore

extension ImageEncoders.JXL: ImageAnimationEncoding {
    /// Encodes every frame of `animation` — an animated GIF, WebP, AVIF or JPEG XL, on the shared
    /// `ImageAnimation` model — as an animated JPEG XL with libjxl, keeping each frame's duration (in milliseconds)
    /// and the loop count.
    ///
    /// Frames are decoded one at a time, passed through `transform` (which must give every frame the same size)
    /// and handed to the encoder, which keeps what it needs of each until the file is written. Every frame gets an
    /// alpha channel (a later frame may be translucent where the first isn't). The first frame's
    /// `PlatformImage.colorProfile`, if any, labels the file as ``encode(_:)`` describes.
    ///
    /// - Returns: The JPEG XL data, or `nil` if the animation is empty, a frame has another size than the first,
    ///   or libjxl fails.
    /// - Throws: What decoding a frame or `transform` throws.
    public func encode(
        _ animation: any ImageAnimation, transform: (PlatformImage) throws -> PlatformImage = { $0 }
    ) throws -> Data? {
        var writer: JXLWriter?
        var failed = false
        try animation.forEachFrame { frame in
            guard !failed else { return }
            let image = try transform(frame.image)
            if writer == nil {
                writer = JXLWriter(
                    width: image.width, height: image.height, hasAlpha: true, loopCount: animation.loopCount,
                    distance: distance, effort: effort, colorProfile: image.colorProfile)
            }
            // Milliseconds, at least 1 (libjxl merges a zero-duration frame into the next); a duration that isn't finite (from a custom ImageAnimation) shows for a second.
            let milliseconds = frame.duration.isFinite ? min(max(frame.duration * 1000, 1), 1e9) : 1000
            failed = !(writer?.add(image, milliseconds: UInt32(milliseconds.rounded())) ?? false)
        }
        guard !failed, let writer else { return nil }
        return writer.finish()
    }
}
