internal import CWebP
public import Foundation
public import NukeCore

extension ImageEncoders.WebP: ImageAnimationEncoding {
    /// Encodes every frame of `animation` — an animated GIF, WebP or AVIF sequence, on the shared
    /// `ImageAnimation` model — as an animated WebP with libwebp's animation encoder, keeping each frame's
    /// duration and the loop count, so a transcoded animation keeps playing.
    ///
    /// Frames are decoded one at a time, passed through `transform` (for example the processors of a request,
    /// which must give every frame the same size) and handed to the encoder, which keeps what it needs; the
    /// frames themselves are not kept. Frames use ``quality`` and ``isLossless``; libwebp stores only what
    /// changes from the previous frame. Durations are rounded to whole milliseconds, at least 1. The first frame's
    /// `PlatformImage.colorProfile` (after `transform`), when it has an ICC profile, is embedded in an `ICCP` chunk,
    /// as the still encoder embeds an image's: a WebP file has one profile for all its frames.
    ///
    /// - Returns: The WebP data, or `nil` if the animation is empty, a frame has another size than the first,
    ///   a side exceeds ``maximumDimension``, or libwebp fails.
    /// - Throws: What decoding a frame or `transform` throws.
    public func encode(
        _ animation: any ImageAnimation, transform: (PlatformImage) throws -> PlatformImage = { $0 }
    ) throws -> Data? {
        var encoder: OpaquePointer?
        defer { if let encoder { WebPAnimEncoderDelete(encoder) } }
        var config = WebPConfig()
        let clamped = quality.isNaN ? 0.8 : min(max(quality, 0), 1)
        guard WebPConfigInit(&config) != 0 else { return nil }
        config.quality = clamped * 100
        config.lossless = isLossless ? 1 : 0
        var size: (width: Int, height: Int)?
        var profile: Data?
        var timestamp = 0
        var failed = false
        try animation.forEachFrame { frame in
            guard !failed else { return }
            let image = try transform(frame.image)
            if size == nil {
                size = (image.width, image.height)
                profile = image.colorProfile?.iccData
                encoder = makeEncoder(width: image.width, height: image.height, loopCount: animation.loopCount)
            }
            guard let encoder, let size, image.width == size.width, image.height == size.height,
                add(image, to: encoder, timestamp: timestamp, config: &config)
            else {
                failed = true
                return
            }
            timestamp += max(1, Int((frame.duration * 1000).rounded()))
        }
        guard !failed, let encoder, WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
            return nil
        }
        var output = WebPData()
        defer { WebPDataClear(&output) }
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else { return nil }
        let encoded = Data(bytes: bytes, count: output.size)
        guard let profile else { return encoded }
        return WebPColorProfile.embedding(profile, in: encoded) ?? encoded
    }

    private func makeEncoder(width: Int, height: Int, loopCount: Int) -> OpaquePointer? {
        guard width > 0, height > 0, width <= Self.maximumDimension, height <= Self.maximumDimension else {
            return nil
        }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { return nil }
        options.anim_params.loop_count = Int32(clamping: loopCount)  // Both count plays, 0 meaning forever.
        options.allow_mixed = 0
        return WebPAnimEncoderNew(Int32(width), Int32(height), &options)
    }

    /// Hands one frame (straight RGBA, as libwebp takes it) to the encoder.
    private func add(
        _ image: PlatformImage, to encoder: OpaquePointer, timestamp: Int, config: inout WebPConfig
    )
        -> Bool
    {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { return false }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        let straight = image.unpremultipliedRGBA()
        let imported = straight.withUnsafeBufferPointer { pixels in
            WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(image.width * 4))
        }
        guard imported != 0 else { return false }
        return WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0
    }
}
