import DecoderAVIF
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("AVIF decoder")
struct AVIFDecoderTests {
    @Test("matches AVIF by its ftyp brand only, and register(in:) adds a factory for it")
    func matching() throws {
        let avif = try pillow("hopper.avif")
        let sequence = try pillow("star.avifs")
        #expect(ImageDecoders.AVIF(context: context(avif)) != nil)
        #expect(ImageDecoders.AVIF(context: context(sequence)) != nil)
        #expect(ImageDecoders.AVIF(context: context(Data("not an avif".utf8))) == nil)

        let registry = ImageDecoderRegistry()
        ImageDecoders.AVIF.register(in: registry)
        let decoder = try #require(registry.decoder(for: context(avif)))
        #expect(try decoder.decode(avif).image.width == 128)
    }

    @Test("an image without alpha is opaque; alpha is premultiplied")
    func alpha() throws {
        let opaque = try ImageDecoders.AVIF().decode(try pillow("hopper.avif"))
        #expect(opaque.image.isOpaque && opaque.type == .avif && opaque.data == nil)
        let transparent = try ImageDecoders.AVIF().decode(try pillow("transparency.avif")).image
        #expect(!transparent.isOpaque)
        var sawTranslucent = false
        transparent.withUnsafeBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 4) {
                let alpha = bytes[offset + 3]
                #expect(bytes[offset] <= alpha && bytes[offset + 1] <= alpha && bytes[offset + 2] <= alpha)
                if alpha < 255 { sawTranslucent = true }
            }
        }
        #expect(sawTranslucent)
    }

    @Test("the first image of a sequence over the animation limits still decodes; the animation is refused")
    func firstImageOfALongSequence() throws {
        let data = try pillow("star.avifs")
        let limits = ImageDecoders.AVIF.Configuration(maximumFrameCount: 1)

        let first = try ImageDecoders.AVIF(configuration: limits).decode(data)

        #expect(first.image.width > 0 && first.data == data)
        #expect(throws: ImageDecoders.AVIF.Error.tooManyFrames(maximumFrameCount: 1)) {
            try ImageDecoders.AVIF.Animation(data: data, configuration: limits)
        }
    }

    @Test("a sequence decodes to its first image, keeps the data, and is an ImageAnimation")
    func sequence() throws {
        let data = try pillow("star.avifs")

        let container = try ImageDecoders.AVIF().decode(data)
        let animation: any ImageAnimation = try ImageDecoders.AVIF.Animation(data: data)

        #expect(container.data == data)
        #expect(animation.frameCount == 5 && animation.loopCount == 0 && animation.isAnimated)
        #expect(animation.frameDurations == [0.04, 0.04, 0.04, 0.04, 0.04])
        #expect(try animation.frame(at: 0) == container.image)
        var images: [PlatformImage] = []
        try animation.forEachFrame { images.append($0.image) }
        #expect(images.count == 5 && Set(images).count > 1)
        #expect(try animation.frame(at: 3) == images[3])
        #expect(throws: ImageDecoders.AVIF.Error.frameIndexOutOfRange(index: 5, frameCount: 5)) {
            try ImageDecoders.AVIF.Animation(data: data).frame(at: 5)
        }
    }

    @Test("a still image is an animation of one frame")
    func still() throws {
        let animation = try ImageDecoders.AVIF.Animation(data: try pillow("hopper.avif"))
        #expect(animation.frameCount == 1 && animation.loopCount == 1 && animation.bitDepth == 8)
        #expect(try animation.frame(at: 0).width == 128)
    }
}

@Suite("AVIF encoder")
struct AVIFEncoderTests {
    @Test("an opaque image round-trips through the encoder and decoder at high quality")
    func opaqueRoundTrip() throws {
        let source = try ImageDecoders.AVIF().decode(try pillow("hopper.avif")).image

        let data = try #require(ImageEncoders.AVIF(quality: 0.9, speed: 9).encode(source))
        let decoded = try ImageDecoders.AVIF().decode(data).image

        #expect(AssetType(data) == .avif)
        #expect(decoded.width == 128 && decoded.height == 128 && decoded.isOpaque)
        #expect(try #require(ImageComparison.psnr(source, decoded)) > 35)
    }

    @Test("alpha survives, and a lower quality makes a smaller file")
    func alphaAndQuality() throws {
        let source = try ImageDecoders.AVIF().decode(try pillow("transparency.avif")).image

        let high = try #require(ImageEncoders.AVIF(quality: 0.9, speed: 9).encode(source))
        let low = try #require(ImageEncoders.AVIF(quality: 0.2, speed: 9).encode(source))
        let decoded = try ImageDecoders.AVIF().decode(high).image

        #expect(!decoded.isOpaque)
        #expect(try #require(ImageComparison.psnr(source, decoded)) > 30)
        #expect(low.count < high.count)
    }

    @Test("a translucent colour round-trips premultiplied: straight alpha in the file, no channel above alpha")
    func translucentColourRoundTrips() throws {
        // Premultiplied (200, 100, 50) at alpha 128, lossless-ish (quality 1 is 4:4:4)
        let source = Fixtures.solidImage(width: 32, height: 32, color: .init(r: 100, g: 50, b: 25, a: 128))

        let data = try #require(ImageEncoders.AVIF(quality: 1, speed: 9).encode(source))
        let decoded = try ImageDecoders.AVIF().decode(data).image

        #expect(!decoded.isOpaque)
        decoded.withUnsafeBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 4) {
                let (r, g, b, a) = (bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
                guard r <= a, g <= a, b <= a, abs(Int(a) - 128) <= 2, abs(Int(r) - 100) <= 4,
                    abs(Int(g) - 50) <= 4, abs(Int(b) - 25) <= 4
                else {
                    Issue.record("pixel \(offset / 4): \((r, g, b, a)), expected ≈ (100, 50, 25, 128)")
                    return
                }
            }
        }
    }

    @Test("an empty image encodes to nil")
    func empty() {
        #expect(ImageEncoders.AVIF().encode(PlatformImage()) == nil)
    }
}

@Suite("AVIF sequence encoding")
struct AVIFSequenceEncoderTests {
    @Test("an animation encodes to a sequence with its frames and durations")
    func sequenceRoundTrip() throws {
        let source = try ImageDecoders.AVIF.Animation(data: try pillow("star.avifs"))

        let data = try #require(try ImageEncoders.AVIF(quality: 0.9, speed: 9).encode(source))
        let copy = try ImageDecoders.AVIF.Animation(data: data)

        #expect(AssetType(data) == .avif)
        #expect(copy.frameCount == 5 && copy.frameDurations == source.frameDurations)
        #expect(copy.canvasWidth == 159 && copy.canvasHeight == 159)
        for index in [0, 4] {
            let psnr = ImageComparison.psnr(try copy.frame(at: index), try source.frame(at: index))
            #expect(try #require(psnr) > 30, "frame \(index)")
        }
    }
}
