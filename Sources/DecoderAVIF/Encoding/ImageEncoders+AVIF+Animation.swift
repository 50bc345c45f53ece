internal import CAVIF
public import Foundation
public import NukeCore

extension ImageEncoders.AVIF: ImageAnimationEncoding {
    /// Encodes every frame of `animation` — an animated GIF, WebP or AVIF sequence, on the shared
    /// `ImageAnimation` model — as an AVIF image sequence (`avis`) with libavif's encoder, keeping each
    /// frame's duration (in milliseconds).
    ///
    /// Frames are decoded one at a time, passed through `transform` (which must give every frame the same size)
    /// and handed to the encoder. libavif 0.11 writes no repetition count: players loop a sequence forever.
    ///
    /// - Returns: The AVIF data, or `nil` if the animation is empty, a frame has another size than the first,
    ///   or libavif fails.
    /// - Throws: What decoding a frame or `transform` throws.
    public func encode(
        _ animation: any ImageAnimation, transform: (PlatformImage) throws -> PlatformImage = { $0 }
    ) throws -> Data? {
        guard let encoder = makeEncoder() else { return nil }
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.timescale = 1000
        let isSingle = animation.frameCount == 1
        var size: (width: Int, height: Int)?
        var failed = false
        try animation.forEachFrame { frame in
            guard !failed else { return }
            let image = try transform(frame.image)
            if size == nil { size = (image.width, image.height) }
            guard let size, image.width == size.width, image.height == size.height, let avif = makeImage(image)
            else {
                failed = true
                return
            }
            defer { avifImageDestroy(avif) }
            // Milliseconds, at least 1; a duration that isn't finite (from a custom ImageAnimation) shows for a second.
            let milliseconds = frame.duration.isFinite ? min(max(frame.duration * 1000, 1), 1e12) : 1000
            let duration = UInt64(milliseconds.rounded())
            let flags = avifAddImageFlags(isSingle ? AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue : 0)
            failed = avifEncoderAddImage(encoder, avif, duration, flags) != AVIF_RESULT_OK
        }
        guard !failed, size != nil else { return nil }
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        guard avifEncoderFinish(encoder, &output) == AVIF_RESULT_OK, let bytes = output.data else { return nil }
        return Data(bytes: bytes, count: output.size)
    }
}
