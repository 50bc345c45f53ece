@testable import DecoderJXL
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("JPEG XL encoder")
struct JXLEncoderTests {
    @Test("lossless round trips are exact, opaque and with premultiplied alpha", arguments: ["source", "alpha"])
    func losslessRoundTrip(_ name: String) throws {
        let source = try straightRGBA("\(name).rgba")

        let data = try #require(ImageEncoders.JXL(effort: 3, isLossless: true).encode(source))
        let decoded = try ImageDecoders.JXL().decode(data).image

        #expect(AssetType(data) == .jxl)
        #expect(decoded == source)
    }

    @Test("a lossy round trip stays within 35 dB of the source, and a lower quality makes a smaller file")
    func lossyRoundTrip() throws {
        let source = try straightRGBA("source.rgba")

        let high = try #require(ImageEncoders.JXL(quality: 0.9, effort: 3).encode(source))
        let low = try #require(ImageEncoders.JXL(quality: 0.3, effort: 3).encode(source))
        let decoded = try ImageDecoders.JXL().decode(high).image

        #expect(decoded.isOpaque)
        let psnr = try #require(ImageComparison.psnr(source, decoded))
        #expect(psnr > 35, "PSNR \(psnr) dB")
        #expect(low.count < high.count)
    }

    @Test("quality maps to libjxl's distance as cjxl -q maps it")
    func distance() {
        #expect(ImageEncoders.JXL(quality: 0.9).distance.map { abs($0 - 1) < 1e-5 } == true)
        #expect(ImageEncoders.JXL(quality: 0.3).distance.map { abs($0 - 6.4) < 1e-5 } == true)
        #expect(ImageEncoders.JXL(quality: 0.2).distance.map { abs($0 - (6.4 + 6.25 / 6.25)) < 1e-4 } == true)
        #expect(ImageEncoders.JXL(quality: 0).distance == 15)
        #expect(ImageEncoders.JXL(quality: 1).distance == nil)
        #expect(ImageEncoders.JXL(quality: 0.5, isLossless: true).distance == nil)
    }

    @Test("an empty image encodes to nil")
    func empty() {
        #expect(ImageEncoders.JXL().encode(PlatformImage()) == nil)
    }

    @Test("an animation encodes losslessly with its frames, durations and loop count")
    func animationRoundTrip() throws {
        let source = try SolidAnimation(loopCount: 3)

        let data = try #require(try ImageEncoders.JXL(effort: 3, isLossless: true).encode(source))
        let copy = try ImageDecoders.JXL.Animation(data: data)

        #expect(AssetType(data) == .jxl)
        #expect(copy.frameCount == 3 && copy.loopCount == 3 && copy.frameDurations == source.frameDurations)
        for index in 0..<3 {
            let frame = try copy.frame(at: index)
            #expect(frame.bytes == (try source.frame(at: index)).bytes, "frame \(index)")
        }
    }

    @Test("a decoded JPEG XL animation re-encodes to the same frames")
    func reencodedAnimation() throws {
        let source = try ImageDecoders.JXL.Animation(data: try fixture("animated.jxl"))

        let data = try #require(try ImageEncoders.JXL(effort: 3, isLossless: true).encode(source))
        let copy = try ImageDecoders.JXL.Animation(data: data)

        #expect(copy.frameCount == 3 && copy.loopCount == 0 && copy.frameDurations == source.frameDurations)
        #expect(try copy.frame(at: 1).bytes == (try source.frame(at: 1)).bytes)
    }
}
