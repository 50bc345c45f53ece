import DecoderHEIF
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("HEIF decoder safety")
struct HEIFSafetyTests {
    @Test("empty data throws emptyData")
    func empty() {
        #expect(throws: ImageDecoders.HEIF.Error.emptyData) { try ImageDecoders.HEIF().decode(Data()) }
    }

    @Test("data that isn't HEIF throws a typed error with libheif's message")
    func notHEIF() {
        let error = #expect(throws: ImageDecoders.HEIF.Error.self) {
            try ImageDecoders.HEIF().decode(Data("this is not an ISO BMFF file at all".utf8))
        }
        #expect(error?.description.hasPrefix("HEIF decoding failed: ") == true)
    }

    @Test("truncated data throws a typed error")
    func truncated() throws {
        let data = try fixture("gradient.heic")
        let error = #expect(throws: ImageDecoders.HEIF.Error.self) {
            try ImageDecoders.HEIF().decode(data.prefix(data.count - 100))
        }
        #expect(error?.description.hasPrefix("HEIF decoding failed: ") == true)
    }

    @Test("the pixel limit is checked from the container before decoding, and is configurable")
    func pixelLimit() throws {
        let data = try fixture("gradient.heic")  // 96×64
        #expect(throws: ImageDecoders.HEIF.Error.imageTooLarge(width: 96, height: 64, maximumPixelCount: 6000)) {
            try ImageDecoders.HEIF(configuration: .init(maximumPixelCount: 6000)).decode(data)
        }
        #expect(try ImageDecoders.HEIF(configuration: .init(maximumPixelCount: 6144)).decode(data).image.width == 96)
    }

    @Test("an absurd declared size is refused from the container, before any pixel is decoded")
    func absurdSize() throws {
        var data = try fixture("gradient.heic")
        let ispe = try #require(data.firstRange(of: Data("ispe".utf8)))
        // 'ispe' is a full box: version and flags (4 bytes), then width and height (UInt32, big-endian).
        let sizes = ispe.upperBound + 4
        data.replaceSubrange(sizes..<(sizes + 8), with: [0, 0, 0x60, 0, 0, 0, 0x40, 0])  // 24576×16384

        let error = #expect(throws: ImageDecoders.HEIF.Error.self) { try ImageDecoders.HEIF().decode(data) }
        #expect(error == .imageTooLarge(width: 24576, height: 16384, maximumPixelCount: 100_000_000))

        data.replaceSubrange(sizes..<(sizes + 8), with: [0, 0, 0x80, 0, 0, 0, 0x80, 0])  // 32768×32768
        let refused = #expect(throws: ImageDecoders.HEIF.Error.self) { try ImageDecoders.HEIF().decode(data) }
        #expect(refused?.description.hasPrefix("HEIF decoding failed") == true)
    }

    @Test("a grid's canvas is checked at the size its data declares, not its ispe")
    func gridCanvas() throws {
        // pillow-heif's RGB_8__29x100.heif: a 29×100 grid; its 'idat' holds the grid's data (version, flags,
        // rows - 1, columns - 1, then 16-bit output width and height).
        var data = try fixture("pillow-heif/RGB_8__29x100.heif")
        let image = try ImageDecoders.HEIF().decode(data).image
        #expect(image.width == 29 && image.height == 100)
        let idat = try #require(data.firstRange(of: Data("idat".utf8)))
        let sizes = idat.upperBound + 4
        #expect([UInt8](data[sizes..<(sizes + 4)]) == [0, 29, 0, 100])

        // The grid now declares a 30000×30000 canvas (3.6 GB decoded); its ispe still says 29×100.
        data.replaceSubrange(sizes..<(sizes + 4), with: [0x75, 0x30, 0x75, 0x30])

        #expect(
            throws: ImageDecoders.HEIF.Error.imageTooLarge(width: 30000, height: 30000, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.HEIF().decode(data)
        }
    }

    @Test("a coded image larger than the container declares throws a typed error, never a different size")
    func codedImageLargerThanDeclared() throws {
        // gradient.heic's HEVC picture is 96×64; its 'ispe' is changed to say 48×32.
        var data = try fixture("gradient.heic")
        let ispe = try #require(data.firstRange(of: Data("ispe".utf8)))
        let sizes = ispe.upperBound + 4
        data.replaceSubrange(sizes..<(sizes + 8), with: [0, 0, 0, 48, 0, 0, 0, 32])

        // The HEVC stream's own size (its SPS) is checked before libheif decodes it.
        let limited = ImageDecoders.HEIF(configuration: .init(maximumPixelCount: 48 * 32))
        #expect(throws: ImageDecoders.HEIF.Error.imageTooLarge(width: 96, height: 64, maximumPixelCount: 48 * 32)) {
            try limited.decode(data)
        }
        // Within the limit, a picture of another size than its ispe is refused after decoding.
        let error = #expect(throws: ImageDecoders.HEIF.Error.self) { try ImageDecoders.HEIF().decode(data) }
        #expect(error?.description.hasPrefix("HEIF decoding failed") == true)
    }

    @Test("the largest pixel limit keeps libheif's own side limit")
    func unlimited() throws {
        let decoder = ImageDecoders.HEIF(configuration: .init(maximumPixelCount: .max))
        #expect(try decoder.decode(try fixture("gradient.heic")).image.width == 96)
    }

    @Test(
        "every truncation and 300 seeded mutations return or throw, never crash",
        arguments: [
            "gradient.heic", "translucent.heic", "thumbnail.heic", "pillow-heif/transform_mismatch_thumbnail.heic",
            "pillow-heif/RGB_8__29x100.heif",
        ])
    func corruptionSweep(_ name: String) throws {
        let sample = try fixture(name)

        let report = CorruptionSweep.run(decoder: ImageDecoders.HEIF(), sample: sample, mutationCount: 300)

        #expect(report.total == sample.count + 300)
        #expect(report.thrown >= sample.count)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("HEIF decoding failed") })
    }
}

/// ``ImageDecodingConformance`` run against the HEIF decoder, as a third-party decoder would run it.
@Suite("HEIF decoder conformance")
struct HEIFConformanceTests {
    static let conformance = ImageDecodingConformance(
        makeDecoder: { ImageDecoders.HEIF(context: $0, configuration: .init(maximumPixelCount: 1 << 20)) },
        samples: [("gradient.heic", 96, 64), ("translucent.heic", 96, 64), ("thumbnail.heic", 96, 64)].map {
            // The fixtures are committed; a missing one fails the "decodesSamples" check with an empty sample.
            .init(name: $0.0, data: (try? fixture($0.0)) ?? Data(), width: $0.1, height: $0.2)
        })

    @Test(arguments: conformance.checks)
    func conforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.conformance.run(check)
    }
}
