@_spi(Fuzzing) import DecoderAVIF
import DecoderGIF
@_spi(Fuzzing) import DecoderHEIF
import DecoderJPEG
import DecoderJXL
import DecoderPNG
import DecoderSVG
import DecoderWebP
import Foundation
import NukeCore

/// The decoder plugins on raw bytes. The input is the file as it is (so real images are seeds); its length
/// chooses the variant, so the fuzzer reaches each by adding or removing a byte: an odd length decodes for a
/// thumbnail request, an even one at full size. Every input is also decoded as a download in progress, its first
/// half as a preview. The pixel limit is small so that the fuzzer explores parsing, not allocation.
enum DecoderTargets {
    static let maximumPixelCount = 1 << 20

    static func png(_ data: Data) {
        let decoder = ImageDecoders.PNG(configuration: .init(maximumPixelCount: maximumPixelCount))
        check(data, try? decoder.decode(data), format: "PNG")
    }

    static func jpeg(_ data: Data) {
        let configuration = ImageDecoders.JPEG.Configuration(maximumPixelCount: maximumPixelCount)
        let decoder =
            ImageDecoders.JPEG(context: context(data, thumbnail: data.count % 2 == 1), configuration: configuration)
            ?? ImageDecoders.JPEG(configuration: configuration)
        _ = decoder.decodePartiallyDownloadedData(data.prefix(data.count / 2))
        check(data, try? decoder.decode(data), format: "JPEG")
    }

    static func webp(_ data: Data) {
        let configuration = ImageDecoders.WebP.Configuration(maximumPixelCount: maximumPixelCount)
        let decoder =
            ImageDecoders.WebP(context: context(data, thumbnail: data.count % 2 == 1), configuration: configuration)
            ?? ImageDecoders.WebP(configuration: configuration)
        _ = decoder.decodePartiallyDownloadedData(data.prefix(data.count / 2))
        check(data, try? decoder.decode(data), format: "WebP")
        // Animations: the container's frame table, and every frame (a few, at this pixel limit).
        if let animation = try? ImageDecoders.WebP.Animation(data: data, configuration: configuration) {
            precondition(animation.frameCount == animation.frameDurations.count, "WebP frame table mismatch")
            var frames = 0
            try? animation.forEachFrame { frame in
                precondition(frame.index == frames, "WebP frames out of order")
                frames += 1
                checkPixels(frame.image, format: "WebP frame")
            }
        }
    }

    static func svg(_ data: Data) {
        let configuration = ImageDecoders.SVG.Configuration(maximumPixelCount: maximumPixelCount)
        let decoder =
            ImageDecoders.SVG(context: context(data, thumbnail: data.count % 2 == 1), configuration: configuration)
            ?? ImageDecoders.SVG(configuration: configuration)
        check(data, try? decoder.decode(data), format: "SVG")
    }

    static func gif(_ data: Data) {
        let configuration = ImageDecoders.GIF.Configuration(
            maximumPixelCount: maximumPixelCount, maximumFrameCount: 64, maximumTotalPixelCount: 8 * maximumPixelCount)
        let decoder = ImageDecoders.GIF(configuration: configuration)
        check(data, try? decoder.decode(data), format: "GIF")
        if let animation = try? ImageDecoders.GIF.Animation(data: data, configuration: configuration) {
            iterate(animation, format: "GIF frame")
        }
    }

    static func avif(_ data: Data) {
        // The edit-list walk on every input, not only on the sequences libavif parses.
        if let plays = AVIFFuzzing.playCount(data) { precondition(plays >= 0, "AVIF: negative play count") }
        let configuration = ImageDecoders.AVIF.Configuration(maximumPixelCount: maximumPixelCount)
        let decoder = ImageDecoders.AVIF(configuration: configuration)
        check(data, try? decoder.decode(data), format: "AVIF")
        if let animation = try? ImageDecoders.AVIF.Animation(data: data, configuration: configuration) {
            iterate(animation, format: "AVIF frame")
        }
    }

    static func jxl(_ data: Data) {
        let configuration = ImageDecoders.JXL.Configuration(
            maximumPixelCount: maximumPixelCount, maximumFrameCount: 64, maximumTotalPixelCount: 8 * maximumPixelCount)
        let decoder = ImageDecoders.JXL(configuration: configuration)
        // Previews of a download in two steps: the first quarter, then the first half (fed to the same decoder).
        for count in [data.count / 4, data.count / 2] {
            if let preview = decoder.decodePartiallyDownloadedData(data.prefix(count)) {
                checkPixels(preview.image, format: "JPEG XL preview")
            }
        }
        check(data, try? decoder.decode(data), format: "JPEG XL")
        if let animation = try? ImageDecoders.JXL.Animation(data: data, configuration: configuration) {
            iterate(animation, format: "JPEG XL frame")
        }
    }

    static func heif(_ data: Data) {
        // The colour-profile reader on every input libheif parses (unused by decoding, read for colour management).
        if let size = HEIFFuzzing.iccProfileSize(data) { precondition(size >= 0, "HEIF: negative profile size") }
        let configuration = ImageDecoders.HEIF.Configuration(maximumPixelCount: maximumPixelCount)
        let decoder =
            ImageDecoders.HEIF(context: context(data, thumbnail: data.count % 2 == 1), configuration: configuration)
            ?? ImageDecoders.HEIF(configuration: configuration)
        check(data, try? decoder.decode(data), format: "HEIF")
    }

    /// Every frame of an animation, in order, within the pixel limit.
    private static func iterate(_ animation: some ImageAnimation, format: String) {
        precondition(animation.frameCount == animation.frameDurations.count, "\(format): frame table mismatch")
        var frames = 0
        try? animation.forEachFrame { frame in
            precondition(frame.index == frames, "\(format)s out of order")
            frames += 1
            checkPixels(frame.image, format: format)
        }
    }

    /// A context for `data`, with a 64-pixel thumbnail request if `thumbnail`.
    private static func context(_ data: Data, thumbnail: Bool) -> ImageDecodingContext {
        var request = ImageRequest(url: URL(string: "https://example.com/image"))
        if thumbnail { request.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 64) }
        return ImageDecodingContext(request: request, data: data)
    }

    /// A decoded image must respect the pixel limit and have the pixels its size says.
    private static func check(_ data: Data, _ container: ImageContainer?, format: String) {
        guard let container else { return }
        checkPixels(container.image, format: format)
    }

    private static func checkPixels(_ image: PlatformImage, format: String) {
        let width = image.width
        let height = image.height
        precondition(width >= 0 && height >= 0, "\(format): negative size")
        precondition(width * height <= maximumPixelCount, "\(format): \(width)×\(height) exceeds the pixel limit")
    }
}
