import DecoderAVIF
import DecoderGIF
import DecoderWebP
import Foundation
import NukeCore
import NukeServe
import NukeTestKit
import Testing

/// Animated sources: the first frames kept as an animated WebP or AVIF, or the first frame as a still; the frame and
/// pixel limits; the processing deadline.
@Suite struct AnimationTests {
    /// Pillow's `chi.gif` (from its source distribution): 320×240, 31 frames, looping forever.
    static let chi: Data = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../DecoderGIFTests/Fixtures/pillow/chi.gif").standardized
        return (try? Data(contentsOf: url)) ?? Data()
    }()

    static func fixture(
        frames: Int, configure: (inout ImageService.Configuration) -> Void = { _ in }
    ) throws -> ImageServiceTests.Fixture {
        try ImageServiceTests.Fixture(routes: ["/chi.gif": .data(chi, headers: ["Content-Type": "image/gif"])]) {
            $0.encoders[.avif] = { ImageEncoders.AVIF(quality: Float($0) / 100) }
            $0.maximumAnimationFrames = frames
            $0.readAnimation = { data in
                AssetType(data) == .gif ? try ImageDecoders.GIF.Animation(data: data) : nil
            }
            configure(&$0)
        }
    }

    @Test func theLeadingFramesBecomeAnAnimatedWebPProcessedFrameByFrame() async throws {
        let source = try ImageDecoders.GIF.Animation(data: Self.chi)
        #expect(source.frameCount == 31 && source.canvasWidth == 320 && source.canvasHeight == 240)
        let fixture = try Self.fixture(frames: 10)

        let response = await fixture.get(fixture.path("rs:fit:160:160/q:95", "chi.gif") + "@webp")

        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(response.header("Content-Type") == "image/webp")
        let result = try ImageDecoders.WebP.Animation(data: response.body)
        #expect(result.frameCount == 10)
        #expect((result.canvasWidth, result.canvasHeight) == (160, 120))
        #expect(result.loopCount == source.loopCount)
        for (made, expected) in zip(result.frameDurations, source.frameDurations.prefix(10)) {
            #expect(abs(made - expected) < 0.0015)
        }
        // Each frame is the source's frame scaled to the result's size (lossy WebP at quality 95: above 30 dB),
        // and closer to its own source frame than to the one before (the frames differ).
        let processor = ServeProcessor(options: try ProcessingURL(path: "/unsafe/rs:fit:160:160/plain/x").options)
        var expected: [PlatformImage] = []
        try source.forEachFrame { frame in
            if frame.index < 10 { expected.append(try processor.processed(frame.image)) }
        }
        var index = 0
        try result.forEachFrame { frame in
            let own = try #require(ImageComparison.psnr(frame.image, expected[index]))
            #expect(own > 30, "frame \(index): \(own) dB")
            if index > 0, let other = ImageComparison.psnr(frame.image, expected[index - 1]), other.isFinite {
                #expect(own > other, "frame \(index)")
            }
            index += 1
        }
        #expect(index == 10)
    }

    @Test func anAnimatedAVIFKeepsTheSameFrames() async throws {
        let fixture = try Self.fixture(frames: 4)

        let response = await fixture.get(fixture.path("rs:fill:64:64", "chi.gif") + "@avif")

        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(response.header("Content-Type") == "image/avif")
        let result = try ImageDecoders.AVIF.Animation(data: response.body)
        #expect(result.frameCount == 4)
        #expect((result.canvasWidth, result.canvasHeight) == (64, 64))
    }

    @Test func oneFrameByDefaultAndInFormatsThatDontAnimate() async throws {
        let stills = try Self.fixture(frames: 1)
        let animated = try Self.fixture(frames: 10)

        let defaultWebP = await stills.get(stills.path("w:100", "chi.gif") + "@webp")
        let png = await animated.get(animated.path("w:100", "chi.gif") + "@png")
        let negotiated = await animated.get(animated.path("w:100", "chi.gif"), headers: ["Accept": "image/png"])

        #expect(defaultWebP.status == 200 && png.status == 200 && negotiated.status == 200)
        #expect(try ImageDecoders.WebP.Animation(data: defaultWebP.body).frameCount == 1)
        #expect(png.header("Content-Type") == "image/png")
        // A GIF source the client takes no WebP or AVIF for: the first frame in PNG (GIF is no output format).
        #expect(negotiated.header("Content-Type") == "image/png")
        let first = try ImageServiceTests.decode(png.body)
        #expect((first.width, first.height) == (100, 75))
    }

    @Test func moreFramePixelsThanTheLimitIs422() async throws {
        let fixture = try Self.fixture(frames: 10) { $0.maximumAnimationPixelCount = 320 * 240 * 9 }
        let five = try Self.fixture(frames: 5) { $0.maximumAnimationPixelCount = 320 * 240 * 9 }

        let over = await fixture.get(fixture.path("w:100", "chi.gif") + "@webp")
        let within = await five.get(five.path("w:100", "chi.gif") + "@webp")

        #expect(over.status == 422)
        #expect(
            String(decoding: over.body, as: UTF8.self)
                == "the animation's 10 frames of 320×240 are more pixels than the limit of 691200\n")
        #expect(over.header("Cache-Control") == nil)
        #expect(within.status == 200)
        #expect(try ImageDecoders.WebP.Animation(data: within.body).frameCount == 5)
    }

    @Test func aPassedProcessingDeadlineIs504ForStillsAndAnimations() async throws {
        let fixture = try Self.fixture(frames: 10) { $0.processingTimeout = 0 }

        let still = await fixture.get(fixture.path("w:100", "a.png"))
        let animation = await fixture.get(fixture.path("w:100", "chi.gif") + "@webp")

        for response in [still, animation] {
            #expect(response.status == 504)
            #expect(
                String(decoding: response.body, as: UTF8.self) == "processing the result took longer than 0 s\n")
        }
        // Failures are not kept: with time to do it, the same result is made.
        let again = try Self.fixture(frames: 10)
        #expect(await again.get(again.path("w:100", "chi.gif") + "@webp").status == 200)
    }
}
