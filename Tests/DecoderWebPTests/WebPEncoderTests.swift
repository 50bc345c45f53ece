import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("WebP encoder")
struct WebPEncoderTests {
    @Test("lossy round trip stays above 30 dB")
    func lossy() throws {
        let image = try photoLikeImage(width: 160, height: 120)

        let data = try #require(ImageEncoders.WebP(quality: 0.9).encode(image))
        let decoded = try ImageDecoders.WebP().decode(data).image

        #expect(AssetType(data) == .webp)
        #expect(try #require(ImageComparison.psnr(image, decoded)) > 30)
        #expect(decoded.isOpaque)
    }

    @Test("lossless round trip is exact for opaque images and within one level with alpha")
    func lossless() throws {
        let opaque = try photoLikeImage(width: 50, height: 30)
        let alpha = try alphaSource()

        let opaqueData = try #require(ImageEncoders.WebP(lossless: true).encode(opaque))
        let alphaData = try #require(ImageEncoders.WebP(lossless: true).encode(alpha))

        #expect(ImageComparison.psnr(opaque, try ImageDecoders.WebP().decode(opaqueData).image) == .infinity)
        let decodedAlpha = try ImageDecoders.WebP().decode(alphaData).image
        #expect(try #require(ImageComparison.maximumDifference(alpha, decodedAlpha)) <= 1)
        #expect(!decodedAlpha.isOpaque)
    }

    @Test("empty and oversized images encode to nil")
    func limits() throws {
        #expect(ImageEncoders.WebP().encode(PlatformImage()) == nil)
        #expect(ImageEncoders.WebP().encode(try PlatformImage(width: 16384, height: 1)) == nil)
    }
}
