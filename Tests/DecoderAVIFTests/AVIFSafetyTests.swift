import DecoderAVIF
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("AVIF decoder safety")
struct AVIFSafetyTests {
    @Test("empty data throws emptyData")
    func empty() {
        #expect(throws: ImageDecoders.AVIF.Error.emptyData) { try ImageDecoders.AVIF().decode(Data()) }
        #expect(throws: ImageDecoders.AVIF.Error.emptyData) { try ImageDecoders.AVIF.Animation(data: Data()) }
    }

    @Test("data that isn't AVIF throws invalidData with libavif's message")
    func notAVIF() {
        let error = #expect(throws: ImageDecoders.AVIF.Error.self) {
            try ImageDecoders.AVIF().decode(Data("this is not an ISO BMFF file at all".utf8))
        }
        #expect(error?.description.hasPrefix("AVIF decoding failed: ") == true)
    }

    @Test("truncated data throws a typed error")
    func truncated() throws {
        let data = try pillow("hopper.avif")
        let error = #expect(throws: ImageDecoders.AVIF.Error.self) {
            try ImageDecoders.AVIF().decode(data.prefix(data.count - 100))
        }
        #expect(error?.description.hasPrefix("AVIF decoding failed: ") == true)
    }

    @Test("the limits are checked from the container before decoding, and are configurable")
    func limits() throws {
        let star = try pillow("star.avifs")  // 159×159, 5 images
        #expect(throws: ImageDecoders.AVIF.Error.imageTooLarge(width: 159, height: 159, maximumPixelCount: 1000)) {
            try ImageDecoders.AVIF(configuration: .init(maximumPixelCount: 1000)).decode(star)
        }
        #expect(throws: ImageDecoders.AVIF.Error.tooManyFrames(maximumFrameCount: 4)) {
            try ImageDecoders.AVIF.Animation(data: star, configuration: .init(maximumFrameCount: 4))
        }
        #expect(throws: ImageDecoders.AVIF.Error.animationTooLarge(maximumTotalPixelCount: 100_000)) {
            try ImageDecoders.AVIF.Animation(data: star, configuration: .init(maximumTotalPixelCount: 100_000))
        }
    }

    @Test("a coded frame larger than the container declares is refused before it is decoded, not scaled down")
    func codedFrameLargerThanDeclared() throws {
        // A 512×512 AV1 frame behind an 'ispe' box that says 64×64: the container passes a 10,000-pixel limit,
        // the frame (262,144 pixels) must not be decoded at all.
        let source = Fixtures.solidImage(width: 512, height: 512, color: .init(r: 200, g: 40, b: 90, a: 255))
        var data = try #require(ImageEncoders.AVIF(quality: 0.5, speed: 9).encode(source))
        let ispe = try #require(data.firstRange(of: Data("ispe".utf8)))
        // 'ispe' is a full box: version and flags (4 bytes), then width and height (UInt32, big-endian).
        let sizes = ispe.upperBound + 4
        data.replaceSubrange(sizes..<(sizes + 8), with: [0, 0, 0, 64, 0, 0, 0, 64])
        let declared = try ImageDecoders.AVIF.Animation(data: data)
        #expect(declared.canvasWidth == 64 && declared.canvasHeight == 64)

        let limited = ImageDecoders.AVIF(configuration: .init(maximumPixelCount: 10_000))
        let error = #expect(throws: ImageDecoders.AVIF.Error.self) { try limited.decode(data) }
        #expect(error?.description.hasPrefix("AVIF decoding failed") == true)
    }

    @Test(
        "every truncation and 300 seeded mutations return or throw, never crash",
        arguments: ["hopper.avif", "transparency.avif", "rot1mir1.avif"])
    func corruptionSweep(_ name: String) throws {
        let sample = try pillow(name)

        let report = CorruptionSweep.run(decoder: ImageDecoders.AVIF(), sample: sample, mutationCount: 300)

        #expect(report.total == sample.count + 300)
        #expect(report.thrown >= sample.count)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("AVIF decoding failed") })
    }

    @Test("300 seeded mutations of a sequence, every frame decoded, return or throw, never crash")
    func sequenceCorruptionSweep() throws {
        let sample = try pillow("star.avifs")
        var thrown = 0
        for data in CorruptionSweep.mutations(of: sample, count: 300, seed: 0x5EED) {
            do {
                let animation = try ImageDecoders.AVIF.Animation(data: data)
                try animation.forEachFrame { #expect($0.image.width == animation.canvasWidth) }
            } catch {
                thrown += 1
                #expect("\(error)".hasPrefix("AVIF decoding failed") || "\(error)".hasPrefix("The animation ended"))
            }
        }
        #expect(thrown > 0)
    }
}

/// ``ImageDecodingConformance`` run against the AVIF decoder, as a third-party decoder would run it.
@Suite("AVIF decoder conformance")
struct AVIFConformanceTests {
    static let conformance = ImageDecodingConformance(
        makeDecoder: { ImageDecoders.AVIF(context: $0, configuration: .init(maximumPixelCount: 1 << 20)) },
        samples: [("hopper.avif", 128, 128), ("transparency.avif", 64, 64), ("star.avifs", 159, 159)].map {
            // The fixtures are committed; a missing one fails the "decodesSamples" check with an empty sample.
            .init(name: $0.0, data: (try? pillow($0.0)) ?? Data(), width: $0.1, height: $0.2)
        })

    @Test(arguments: conformance.checks)
    func conforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.conformance.run(check)
    }
}
