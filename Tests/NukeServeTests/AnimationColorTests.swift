import ColorLCMS
import DecoderAVIF
import DecoderWebP
import Foundation
import NukeCore
import NukeServe
import NukeTestKit
import Testing

/// Animated sources with an embedded profile: every frame of an animated result gets the pipeline's colour profile
/// policy, as the still does — converted to sRGB by its converter, or kept and embedded.
@Suite struct AnimationColorTests {
    /// Display P3's ICC profile, the ColorLCMS tests' fixture.
    static let displayP3: Data = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../ColorLCMSTests/Fixtures/DisplayP3.icc").standardized
        return (try? Data(contentsOf: url)) ?? Data()
    }()

    /// Three 32×24 opaque gradients, different per frame, in Display P3.
    static func frames() throws -> FrameListAnimation {
        let frames = try (0..<3).map { frame in
            var rgba: [UInt8] = []
            for y in 0..<24 {
                for x in 0..<32 {
                    rgba += [UInt8(40 + x * 6 + frame * 10), UInt8(30 + y * 8), UInt8(220 - x * 5 - frame * 20), 255]
                }
            }
            var image = try PlatformImage(width: 32, height: 24, rgba: rgba)
            image.colorProfile = .icc(displayP3)
            return image
        }
        return try FrameListAnimation(frames: frames, durations: [0.1, 0.1, 0.1], loopCount: 0)
    }

    /// The animated sources: a lossless WebP and an AVIF sequence, both with the P3 profile embedded.
    static func sources() throws -> (webp: Data, avif: Data) {
        let animation = try frames()
        let webp = try #require(try ImageEncoders.WebP(lossless: true).encode(animation))
        let avif = try #require(try ImageEncoders.AVIF(quality: 0.9, speed: 10).encode(animation))
        return (webp, avif)
    }

    /// A service that keeps 3 frames and writes lossless WebP (so the served pixels are the converted ones), over a
    /// pipeline with lcms2's converter and `policy`.
    static func fixture(policy: ImagePipeline.ColorProfilePolicy) throws -> ImageServiceTests.Fixture {
        let (webp, avif) = try sources()
        return try ImageServiceTests.Fixture(
            routes: [
                "/p3.webp": .data(webp, headers: ["Content-Type": "image/webp"]),
                "/p3.avif": .data(avif, headers: ["Content-Type": "image/avif"]),
            ],
            configure: {
                $0.encoders[.webp] = { _ in ImageEncoders.WebP(lossless: true) }
                $0.maximumAnimationFrames = 3
                $0.readAnimation = { data in
                    switch AssetType(data) {
                    case .webp: try ImageDecoders.WebP.Animation(data: data)
                    case .avif: try ImageDecoders.AVIF.Animation(data: data)
                    default: nil
                    }
                }
            },
            pipeline: {
                $0.colorConverter = LCMSColorConverter()
                $0.colorProfilePolicy = policy
            })
    }

    /// The source's frames as its decoder gives them (with their profile).
    static func sourceFrames(_ data: Data) throws -> [PlatformImage] {
        let animation: any ImageAnimation =
            AssetType(data) == .webp
            ? try ImageDecoders.WebP.Animation(data: data) : try ImageDecoders.AVIF.Animation(data: data)
        var frames: [PlatformImage] = []
        try animation.forEachFrame { frames.append($0.image) }
        return frames
    }

    @Test(arguments: ["p3.webp", "p3.avif"])
    func everyFrameIsConvertedToSRGBAsTheStillConverterWould(name: String) async throws {
        // Given a service that converts to sRGB, and an animated source in Display P3
        let fixture = try Self.fixture(policy: .convertToSRGB)
        let (webp, avif) = try Self.sources()
        let source = try Self.sourceFrames(name == "p3.webp" ? webp : avif)
        #expect(source.map(\.colorProfile) == Array(repeating: .icc(Self.displayP3), count: 3))

        // When it is served as an animated WebP
        let response = await fixture.get(fixture.path("", name) + "@webp")

        // Then every frame is the converter's sRGB output for the source frame (within a level), with no profile
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let result = try ImageDecoders.WebP.Animation(data: response.body)
        #expect(result.frameCount == 3)
        #expect(result.colorProfile == nil)
        let converter = LCMSColorConverter()
        var index = 0
        try result.forEachFrame { frame in
            let expected = try converter.convertToSRGB(source[index])
            #expect(frame.image.colorProfile == nil)
            let difference = try #require(ImageComparison.maximumDifference(frame.image, expected))
            #expect(difference <= 1, "frame \(index): \(difference) levels from the converter's")
            // The conversion changed the pixels: P3's values are not sRGB's.
            let unconverted = try #require(ImageComparison.maximumDifference(frame.image, source[index]))
            #expect(unconverted > 8, "frame \(index) looks unconverted")
            index += 1
        }
        #expect(index == 3)
    }

    @Test func withTheOriginalProfileKeptTheFramesKeepTheirPixelsAndTheEncoderEmbedsIt() async throws {
        // Given a service whose pipeline keeps profiles
        let fixture = try Self.fixture(policy: .keepOriginal)
        let source = try Self.sourceFrames(try Self.sources().webp)

        // When the P3 animation is served as an animated WebP
        let response = await fixture.get(fixture.path("", "p3.webp") + "@webp")

        // Then the frames are the source's pixels, and the file carries the P3 profile
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let result = try ImageDecoders.WebP.Animation(data: response.body)
        #expect(result.colorProfile == .icc(Self.displayP3))
        var index = 0
        try result.forEachFrame { frame in
            #expect(frame.image.colorProfile == .icc(Self.displayP3))
            let difference = try #require(ImageComparison.maximumDifference(frame.image, source[index]))
            #expect(difference == 0, "frame \(index)")
            index += 1
        }
        #expect(index == 3)
    }
}
