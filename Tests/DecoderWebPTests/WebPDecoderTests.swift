import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("WebP decoder")
struct WebPDecoderTests {
    @Test("decodes a lossy file")
    func lossy() throws {
        let container = try ImageDecoders.WebP().decode(try fixture("lossy.webp"))

        let image = container.image
        #expect(container.type == .webp && container.data == nil)
        #expect(image.width == 64 && image.height == 48 && image.isOpaque)
        let points = [(16, 12), (48, 12), (16, 36), (48, 36)]
        for (index, point) in points.enumerated() {
            #expect(
                ImageComparison.isClose(image.pixel(x: point.0, y: point.1), to: quadrantColors[index], tolerance: 10))
        }
    }

    @Test("decodes a lossless file with alpha exactly, premultiplied")
    func losslessAlpha() throws {
        let image = try ImageDecoders.WebP().decode(try fixture("lossless-alpha.webp")).image

        #expect(image.width == 32 && image.height == 24 && !image.isOpaque)
        // libwebp premultiplies with its own rounding: allow one level.
        #expect(try #require(ImageComparison.maximumDifference(image, try alphaSource())) <= 1)
        #expect(image.pixel(x: 0, y: 0)?.a == 255)
        #expect(image.pixel(x: 16, y: 5)?.a == 128)
    }

    @Test("decodes lossy colour with lossless alpha")
    func lossyAlpha() throws {
        let image = try ImageDecoders.WebP().decode(try fixture("lossy-alpha.webp")).image
        let source = try alphaSource()

        #expect(image.width == 32 && image.height == 24 && !image.isOpaque)
        for x in [0, 9, 16, 31] {
            #expect(image.pixel(x: x, y: 10)?.a == source.pixel(x: x, y: 10)?.a)
        }
        #expect(try #require(ImageComparison.psnr(image, source)) > 30)
    }

    @Test("matches WebP by magic bytes; register(in:) picks it")
    func matching() throws {
        let webp = try fixture("lossy.webp")
        let registry = ImageDecoderRegistry()
        ImageDecoders.WebP.register(in: registry)

        #expect(ImageDecoders.WebP(context: context(webp)) != nil)
        #expect(ImageDecoders.WebP(context: context(Data("RIFF....WAVE".utf8))) == nil)
        #expect(registry.decoder(for: context(webp)) is ImageDecoders.WebP)
    }

    @Test("a thumbnail is decoded at exactly its size with libwebp's scaler")
    func thumbnail() throws {
        // Given a 400×300 image
        let source = Fixtures.photoLikeImage(width: 400, height: 300)
        let data = try #require(ImageEncoders.WebP(quality: 0.9).encode(source))
        let decoder = try #require(ImageDecoders.WebP(context: context(data, thumbnail: .init(maxPixelSize: 100))))

        // When
        let image = try decoder.decode(data).image

        // Then
        #expect(image.width == 100 && image.height == 75)
        let full = try ImageDecoders.WebP().decode(data).image
        // The scaled centre matches the neighbourhood of the full-size centre.
        let center = try #require(image.pixel(x: 50, y: 37))
        let fullCenter = try #require(full.pixel(x: 201, y: 149))
        #expect(ImageComparison.isClose(center, to: fullCenter, tolerance: 24))
    }
}
