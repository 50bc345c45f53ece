import DecoderAVIF
import DecoderGIF
import DecoderJXL
import Foundation
import NukeCore
import NukeServe
import NukeTestKit
import Testing

/// JPEG XL results: asked for by the URL (`f:jxl`, `@jxl`), or chosen from `Accept` when detection is on (imgproxy's
/// `IMGPROXY_AUTO_JXL`, `IMGPROXY_ENFORCE_JXL`), encoded with `ImageEncoders.JXL` at the request's quality.
@Suite struct JXLOutputTests {
    static func fixture(
        detection: FormatNegotiation.JXLDetection = .disabled, frames: Int = 1
    ) throws -> ImageServiceTests.Fixture {
        try ImageServiceTests.Fixture(
            routes: ["/chi.gif": .data(AnimationTests.chi, headers: ["Content-Type": "image/gif"])]
        ) {
            $0.encoders[.jxl] = { ImageEncoders.JXL(quality: Float($0) / 100, effort: 3) }
            $0.encoders[.avif] = { ImageEncoders.AVIF(quality: Float($0) / 100, speed: 10) }
            $0.jxlDetection = detection
            $0.maximumAnimationFrames = frames
            $0.readAnimation = { data in
                AssetType(data) == .gif ? try ImageDecoders.GIF.Animation(data: data) : nil
            }
        }
    }

    @Test(arguments: [
        "/_/f:jxl/plain/http://h/a", "/_/format:jxl/plain/http://h/a", "/_/ext:JXL/plain/http://h/a",
        "/_/plain/http://h/a@jxl", "/_/aHR0cDovL2gvYQ.jxl",
    ])
    func theURLNamesJXL(path: String) throws {
        #expect(try ProcessingURL(path: path).options.format == .jxl)
        #expect(OutputFormat.jxl.mimeType == "image/jxl" && OutputFormat.jxl.fileExtension == "jxl")
    }

    @Test func aJXLResultIsAJPEGXLFileAtTheRequestsQuality() async throws {
        let fixture = try Self.fixture()

        let good = await fixture.get(fixture.path("w:80/q:95") + "@jxl")
        let small = await fixture.get(fixture.path("w:80/q:20") + "@jxl")

        #expect(good.status == 200, "\(String(decoding: good.body, as: UTF8.self))")
        #expect(good.header("Content-Type") == "image/jxl" && good.header("Vary") == nil)
        // A real JPEG XL file: libjxl decodes the 80×60 result, left half red, right half blue.
        let image = try ImageDecoders.JXL().decode(good.body).image
        #expect((image.width, image.height) == (80, 60))
        #expect(ImageComparison.isClose(image.pixel(x: 10, y: 30), to: .init(r: 255, g: 0, b: 0), tolerance: 12))
        #expect(ImageComparison.isClose(image.pixel(x: 70, y: 30), to: .init(r: 0, g: 0, b: 255), tolerance: 12))
        // The quality reaches the encoder: the same result at q:20 is smaller (and a different representation).
        #expect(small.status == 200)
        #expect(small.body.count < good.body.count)
        #expect(small.header("ETag") != good.header("ETag"))
        #expect(try ImageDecoders.JXL().decode(small.body).image.width == 80)
    }

    @Test func acceptChoosesJXLOnlyWithDetectionOn() async throws {
        let off = try Self.fixture()
        let on = try Self.fixture(detection: .enabled)
        let accept = ["Accept": "image/jxl,image/avif,image/webp,*/*"]

        let offResponse = await off.get(off.path("w:40"), headers: accept)
        let onResponse = await on.get(on.path("w:40"), headers: accept)
        let noJXL = await on.get(on.path("w:40"), headers: ["Accept": "image/avif,image/webp,*/*"])
        let named = await on.get(on.path("w:40") + "@png", headers: accept)

        #expect(offResponse.header("Content-Type") == "image/avif" && offResponse.header("Vary") == "Accept")
        #expect(onResponse.header("Content-Type") == "image/jxl" && onResponse.header("Vary") == "Accept")
        #expect(try ImageDecoders.JXL().decode(onResponse.body).image.width == 40)
        #expect(noJXL.header("Content-Type") == "image/avif")
        // Detection never overrides a format the URL names.
        #expect(named.header("Content-Type") == "image/png" && named.header("Vary") == nil)
    }

    @Test func enforcedJXLOverridesTheURLsFormatForClientsThatAcceptIt() async throws {
        let fixture = try Self.fixture(detection: .enforced)

        let jxl = await fixture.get(fixture.path("w:40") + "@png", headers: ["Accept": "image/jxl,image/webp"])
        let png = await fixture.get(fixture.path("w:40") + "@png", headers: ["Accept": "image/webp"])

        #expect(jxl.header("Content-Type") == "image/jxl" && jxl.header("Vary") == "Accept")
        #expect(try ImageDecoders.JXL().decode(jxl.body).image.width == 40)
        // The same URL for another client is its PNG, which depends on Accept too (a cache must not share them).
        #expect(png.header("Content-Type") == "image/png" && png.header("Vary") == "Accept")
        #expect(jxl.header("ETag") != png.header("ETag"))
    }

    @Test func aJXLSourceIsSentAsJPEGOrPNGUnlessJXLIsAskedFor() async throws {
        // Given a JPEG XL source (the PNG fixture re-encoded losslessly)
        let png = try ImageServiceTests.decode(ImageServiceTests.source)
        let source = try #require(ImageEncoders.JXL(isLossless: true).encode(png))
        let routes: [String: LoopbackHTTPServer.Route] = [
            "/a.jxl": .data(source, headers: ["Content-Type": "image/jxl"])
        ]
        let fixture = try ImageServiceTests.Fixture(routes: routes) {
            $0.encoders[.jxl] = { ImageEncoders.JXL(quality: Float($0) / 100, effort: 3) }
            $0.jxlDetection = .enabled
        }

        // When a client that names no JPEG XL asks for it, and one that does
        let plain = await fixture.get(fixture.path("w:40", "a.jxl"), headers: ["Accept": "*/*"])
        let jxl = await fixture.get(fixture.path("w:40", "a.jxl"), headers: ["Accept": "image/jxl,*/*"])

        // Then the first gets a JPEG (the source is opaque), the second JPEG XL
        #expect(plain.status == 200, "\(String(decoding: plain.body, as: UTF8.self))")
        #expect(plain.header("Content-Type") == "image/jpeg" && plain.header("Vary") == "Accept")
        #expect(jxl.header("Content-Type") == "image/jxl")
        #expect(try ImageDecoders.JXL().decode(jxl.body).image.width == 40)
    }

    @Test func theLeadingFramesBecomeAnAnimatedJPEGXL() async throws {
        let fixture = try Self.fixture(frames: 4)

        let response = await fixture.get(fixture.path("rs:fit:80:80", "chi.gif") + "@jxl")

        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(response.header("Content-Type") == "image/jxl")
        let result = try ImageDecoders.JXL.Animation(data: response.body)
        #expect(result.frameCount == 4)
        #expect((result.canvasWidth, result.canvasHeight) == (80, 60))
    }
}

/// The order of `Accept` negotiation with JPEG XL: imgproxy's, JPEG XL before AVIF before WebP when detection is on.
@Suite struct JXLNegotiationTests {
    static let all = Set(OutputFormat.allCases)

    @Test(arguments: [
        (FormatNegotiation.JXLDetection.disabled, "image/jxl,image/avif,image/webp", OutputFormat.avif),
        (.disabled, "image/jxl", .jpeg),
        (.enabled, "image/jxl,image/avif,image/webp", .jxl),
        (.enabled, "image/avif,image/webp,image/jxl;q=0.5", .jxl),
        (.enabled, "image/jxl;q=0,image/webp", .webp),
        (.enabled, "image/*", .jpeg),
        (.enforced, "image/webp,image/jxl", .jxl),
        (.enforced, "image/avif", .avif),
    ])
    func withoutAURLFormat(detection: FormatNegotiation.JXLDetection, accept: String, expected: OutputFormat) {
        let choice = FormatNegotiation.choose(
            requested: nil, accept: accept, source: .jpeg, fallback: .png, available: Self.all, jxl: detection)
        #expect(choice == .init(format: expected, dependsOnAccept: true))
    }

    @Test(arguments: [
        (FormatNegotiation.JXLDetection.disabled, "image/jxl", OutputFormat.webp, false),
        (.enabled, "image/jxl", .webp, false),
        (.enforced, "image/jxl", .jxl, true),
        (.enforced, "image/avif", .webp, true),
    ])
    func withAURLFormat(
        detection: FormatNegotiation.JXLDetection, accept: String, expected: OutputFormat, varies: Bool
    ) {
        let choice = FormatNegotiation.choose(
            requested: .webp, accept: accept, source: .jpeg, fallback: .png, available: Self.all, jxl: detection)
        #expect(choice == .init(format: expected, dependsOnAccept: varies))
        let known = FormatNegotiation.requested(.webp, accept: accept, available: Self.all, jxl: detection)
        #expect(known == expected)
    }

    @Test func withoutAJXLEncoderNothingChoosesIt() {
        let available: Set<OutputFormat> = [.jpeg, .png, .webp]
        let negotiated = FormatNegotiation.choose(
            requested: nil, accept: "image/jxl,image/webp", source: .jpeg, fallback: .png, available: available,
            jxl: .enforced)
        let named = FormatNegotiation.choose(
            requested: .png, accept: "image/jxl", source: .jpeg, fallback: .png, available: available, jxl: .enforced)

        #expect(negotiated == .init(format: .webp, dependsOnAccept: true))
        #expect(named == .init(format: .png, dependsOnAccept: false))
    }
}
