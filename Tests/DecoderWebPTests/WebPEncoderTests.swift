import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("WebP encoder")
struct WebPEncoderTests {
    @Test("lossy round trip stays above 30 dB")
    func lossy() throws {
        let image = Fixtures.photoLikeImage(width: 160, height: 120)

        let data = try #require(ImageEncoders.WebP(quality: 0.9).encode(image))
        let decoded = try ImageDecoders.WebP().decode(data).image

        #expect(AssetType(data) == .webp)
        #expect(try #require(ImageComparison.psnr(image, decoded)) > 30)
        #expect(decoded.isOpaque)
    }

    @Test("lossless round trip is exact for opaque images and within one level with alpha")
    func lossless() throws {
        let opaque = Fixtures.photoLikeImage(width: 50, height: 30)
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

@Suite("Animated WebP encoding")
struct WebPAnimationEncoderTests {
    @Test("an animation re-encodes with its frames, durations and loop count; transform applies per frame")
    func roundTrip() throws {
        let source = try ImageDecoders.WebP.Animation(data: try fixture("animated.webp"))

        let data = try #require(try ImageEncoders.WebP(lossless: true).encode(source))
        let copy = try ImageDecoders.WebP.Animation(data: data)

        #expect(copy.frameCount == source.frameCount && copy.loopCount == source.loopCount)
        #expect(copy.frameDurations == source.frameDurations)
        for index in 0..<source.frameCount {
            let difference = ImageComparison.maximumDifference(try copy.frame(at: index), try source.frame(at: index))
            #expect(try #require(difference) <= 1, "frame \(index)")
        }

        let resize = ImageProcessors.Resize(width: 12, unit: .pixels)
        let encoded = try ImageEncoders.WebP().encode(source) { frame in
            guard let resized = resize.process(frame) else { throw ImageProcessingError.processingFailed }
            return resized
        }
        let small = try #require(encoded)
        let resized = try ImageDecoders.WebP.Animation(data: small)
        #expect(resized.canvasWidth == 12 && resized.canvasHeight == 8 && resized.frameCount == 3)
    }

    @Test("frames of different sizes encode to nil")
    func mismatchedSizes() throws {
        let source = try ImageDecoders.WebP.Animation(data: try fixture("animated.webp"))
        var count = 0
        let data = try ImageEncoders.WebP().encode(source) { frame in
            count += 1
            guard count == 2 else { return frame }
            guard let resized = ImageProcessors.Resize(width: 12, unit: .pixels).process(frame) else {
                throw ImageProcessingError.processingFailed
            }
            return resized
        }
        #expect(data == nil)
    }
}
