import Foundation
import Nuke
import NukeTestKit
import Testing

/// The umbrella's Nuke-named defaults: the catch-all decoder and encoder, and decoding a thumbnail from data.
@Suite struct UmbrellaDefaultsTests {
    private let image = Fixtures.solidImage(width: 64, height: 48, color: .init(r: 200, g: 100, b: 50))

    @Test func thumbnailFromDataIsExactlyTheAskedSize() throws {
        let jpeg = try #require(ImageEncoders.JPEG().encode(image))
        let thumbnail = try #require(ImageRequest.ThumbnailOptions(maxPixelSize: 16).makeThumbnail(with: jpeg))
        #expect(thumbnail.width == 16 && thumbnail.height == 12)
        #expect(ImageRequest.ThumbnailOptions(maxPixelSize: 16).makeThumbnail(with: Data("not an image".utf8)) == nil)
    }

    @Test func defaultDecoderPicksTheCodecFromTheData() throws {
        let png = try #require(ImageEncoders.PNG().encode(image))
        let webp = try #require(ImageEncoders.WebP().encode(image))
        for data in [png, webp] {
            #expect(try ImageDecoders.Default().decode(data).image.width == 64)
            let context = ImageDecodingContext(request: ImageRequest(url: nil), data: data)
            #expect(ImageDecoders.Default(context: context) != nil)
        }
        let garbage = ImageDecodingContext(request: ImageRequest(url: nil), data: Data(repeating: 1, count: 32))
        #expect(ImageDecoders.Default(context: garbage) == nil)
        #expect(throws: ImageDecodingError.self) { try ImageDecoders.Default().decode(garbage.data) }
    }

    @Test func defaultEncoderUsesTheCompressionQualityForOpaqueImages() throws {
        var opaque = image
        opaque.isOpaque = true
        let low = try #require(ImageEncoders.Default(compressionQuality: 0.1).encode(opaque))
        let high = try #require(ImageEncoders.Default(compressionQuality: 1).encode(opaque))
        #expect(AssetType(low) == .jpeg && AssetType(high) == .jpeg)
        #expect(low.count < high.count)
        let encoder: any ImageEncoding = .default(compressionQuality: 0.5)
        #expect((encoder as? ImageEncoders.Default)?.compressionQuality == 0.5)
    }
}

@Suite struct ImageIOEncoderTests {
    @Test func encodesEachSupportedType() throws {
        let image = Fixtures.solidImage(width: 8, height: 8, color: .init(r: 1, g: 2, b: 3))
        for type in [AssetType.png, .jpeg, .webp, .avif, .jxl] {
            #expect(ImageEncoders.ImageIO.isSupported(type: type))
            let data = try #require(ImageEncoders.ImageIO(type: type, compressionRatio: 0.7).encode(image))
            #expect(AssetType(data) == type)
        }
        #expect(!ImageEncoders.ImageIO.isSupported(type: .heic))
        #expect(ImageEncoders.ImageIO(type: .heic).encode(image) == nil)
        let encoder: any ImageEncoding = .imageIO(type: .png)
        #expect((encoder as? ImageEncoders.ImageIO)?.type == .png)
    }
}
