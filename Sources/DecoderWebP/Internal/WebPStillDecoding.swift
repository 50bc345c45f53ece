internal import CWebP
import NukeCore

/// Decodes a still WebP straight into a ``PlatformImage``'s storage, optionally scaled.
enum WebPStillDecoding {
    /// Decodes `bytes` at `width`×`height` (the full size, or smaller to scale while decoding) as
    /// premultiplied RGBA.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, width: Int, height: Int, features: WebPFeatures
    ) throws -> PlatformImage {
        guard let base = bytes.baseAddress else { throw ImageDecoders.WebP.Error.emptyData }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw ImageDecoders.WebP.Error.invalidData(message: "libwebp version mismatch")
        }
        if width != features.width || height != features.height {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
        }
        config.output.colorspace = MODE_rgbA
        config.output.is_external_memory = 1
        return try PlatformImage(width: width, height: height, isOpaque: !features.hasAlpha) { pixels in
            guard let output = pixels.baseAddress else { return }
            config.output.u.RGBA.rgba = output.assumingMemoryBound(to: UInt8.self)
            config.output.u.RGBA.stride = Int32(width * PlatformImage.bytesPerPixel)
            config.output.u.RGBA.size = pixels.count
            let status = WebPDecode(base.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
            WebPFreeDecBuffer(&config.output)  // Releases nothing of ours: the memory is external.
            guard status == VP8_STATUS_OK else {
                throw ImageDecoders.WebP.Error(status: status, context: "image")
            }
        }
    }
}
