import DecoderJXL
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("JPEG XL decoder safety")
struct JXLSafetyTests {
    @Test("empty data throws emptyData")
    func empty() {
        #expect(throws: ImageDecoders.JXL.Error.emptyData) { try ImageDecoders.JXL().decode(Data()) }
        #expect(throws: ImageDecoders.JXL.Error.emptyData) { try ImageDecoders.JXL.Animation(data: Data()) }
    }

    @Test("data that isn't JPEG XL throws invalidData")
    func notJXL() {
        let error = #expect(throws: ImageDecoders.JXL.Error.self) {
            try ImageDecoders.JXL().decode(Data("this is not a JPEG XL file at all".utf8))
        }
        #expect(error?.description.hasPrefix("JPEG XL decoding failed: ") == true)
    }

    @Test("truncated data throws truncatedData", arguments: ["lossless.jxl", "container.jxl", "lossy.jxl"])
    func truncated(_ name: String) throws {
        let data = try fixture(name)
        #expect(throws: ImageDecoders.JXL.Error.truncatedData) {
            try ImageDecoders.JXL().decode(data.prefix(data.count - 20))
        }
    }

    @Test("a truncated animation throws truncatedData at the first frame that isn't all there")
    func truncatedAnimation() throws {
        let data = try fixture("animated.jxl")
        let animation = try ImageDecoders.JXL.Animation(data: data.prefix(data.count - 10))
        var frames = 0
        #expect(throws: ImageDecoders.JXL.Error.truncatedData) {
            try animation.forEachFrame { _ in frames += 1 }
        }
        #expect(frames < 3)
    }

    @Test("the pixel limit is checked from the header before any pixel is decoded")
    func pixelLimit() throws {
        let limited = ImageDecoders.JXL(configuration: .init(maximumPixelCount: 3071))
        #expect(throws: ImageDecoders.JXL.Error.imageTooLarge(width: 64, height: 48, maximumPixelCount: 3071)) {
            try limited.decode(try fixture("lossless.jxl"))
        }
        #expect(throws: ImageDecoders.JXL.Error.imageTooLarge(width: 64, height: 48, maximumPixelCount: 3071)) {
            try ImageDecoders.JXL.Animation(
                data: try fixture("lossy.jxl"), configuration: .init(maximumPixelCount: 3071))
        }
        #expect(limited.decodePartiallyDownloadedData(try fixture("progressive.jxl")) == nil)
        // Exactly at the limit decodes.
        let exact = ImageDecoders.JXL(configuration: .init(maximumPixelCount: 3072))
        #expect(try exact.decode(try fixture("lossless.jxl")).image.width == 64)
    }

    @Test("a header declaring 100 000 × 100 000 pixels is refused with imageTooLarge before any pixel is decoded")
    func absurdSize() throws {
        let data = try AbsurdSize.codestream(from: try fixture("lossless.jxl"), side: 100_000)

        #expect(AssetType(data) == .jxl)
        #expect(
            throws: ImageDecoders.JXL.Error.imageTooLarge(
                width: 100_000, height: 100_000, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.JXL().decode(data)
        }
        #expect(
            throws: ImageDecoders.JXL.Error.imageTooLarge(
                width: 100_000, height: 100_000, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.JXL.Animation(data: data)
        }
        #expect(ImageDecoders.JXL().decodePartiallyDownloadedData(data) == nil)
    }

    @Test("an animation over the frame or total-pixel limits is refused from its headers")
    func animationLimits() throws {
        let animated = try fixture("animated.jxl")
        #expect(throws: ImageDecoders.JXL.Error.tooManyFrames(maximumFrameCount: 2)) {
            try ImageDecoders.JXL.Animation(data: animated, configuration: .init(maximumFrameCount: 2))
        }
        #expect(throws: ImageDecoders.JXL.Error.animationTooLarge(maximumTotalPixelCount: 2048)) {
            try ImageDecoders.JXL.Animation(data: animated, configuration: .init(maximumTotalPixelCount: 2048))
        }
    }

    @Test(
        "every truncation and 300 seeded mutations return or throw, never crash",
        arguments: ["lossless.jxl", "lossy.jxl", "alpha.jxl", "orientation-6.jxl"])
    func corruptionSweep(_ name: String) throws {
        let sample = try fixture(name)

        let report = CorruptionSweep.run(decoder: ImageDecoders.JXL(), sample: sample, mutationCount: 300)

        #expect(report.total == sample.count + 300)
        #expect(report.thrown >= sample.count)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("JPEG XL decoding failed") })
    }

    @Test("300 seeded mutations of an animation, every frame decoded, return or throw, never crash")
    func animationCorruptionSweep() throws {
        let sample = try fixture("animated.jxl")
        var thrown = 0
        for data in CorruptionSweep.mutations(of: sample, count: 300, seed: 0x5EED) {
            do {
                let animation = try ImageDecoders.JXL.Animation(data: data)
                try animation.forEachFrame { #expect($0.image.width == animation.canvasWidth) }
            } catch {
                thrown += 1
                #expect("\(error)".hasPrefix("JPEG XL decoding failed") || "\(error)".hasPrefix("The animation ended"))
            }
        }
        #expect(thrown > 0)
    }
}

/// ``ImageDecodingConformance`` run against the JPEG XL decoder, as a third-party decoder would run it.
@Suite("JPEG XL decoder conformance")
struct JXLConformanceTests {
    static let conformance = ImageDecodingConformance(
        makeDecoder: { ImageDecoders.JXL(context: $0, configuration: .init(maximumPixelCount: 1 << 20)) },
        samples: [("lossless.jxl", 64, 48), ("alpha.jxl", 64, 48), ("animated.jxl", 32, 32)].map {
            // The fixtures are committed; a missing one fails the "decodesSamples" check with an empty sample.
            .init(name: $0.0, data: (try? fixture($0.0)) ?? Data(), width: $0.1, height: $0.2)
        })

    @Test(arguments: conformance.checks)
    func conforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.conformance.run(check)
    }
}

/// A real codestream whose size header is rewritten to declare a square of `side` pixels: the rest of the headers
/// (and the frame, now far too small) are kept bit for bit.
enum AbsurdSize {
    static func codestream(from data: Data, side: Int) throws -> Data {
        // The codestream is read least significant bit first. `lossless.jxl` is 64×48, a "small" size header: one
        // bit set, 5 bits of height / 8 − 1, 3 bits of aspect ratio (4:3) — 9 bits after the FF 0A signature.
        var bits = data.flatMap { byte in (0..<8).map { (byte >> $0) & 1 } }
        try #require(Array(data.prefix(2)) == [0xFF, 0x0A] && bits[16] == 1)
        let height = (1...5).reduce(0) { $0 | Int(bits[16 + $1]) << ($1 - 1) }
        let ratio = (6...8).reduce(0) { $0 | Int(bits[16 + $1]) << ($1 - 6) }
        try #require(height == 5 && ratio == 3)
        // The large form: bit 0, then height − 1 as U32 selector 3 (30 bits), ratio 1 (1:1, so no width field).
        var header: [UInt8] = [0, 1, 1]
        header += (0..<30).map { UInt8((side - 1) >> $0 & 1) }
        header += [1, 0, 0]
        bits.replaceSubrange(16..<25, with: header)
        while bits.count % 8 != 0 { bits.append(0) }
        return Data(
            stride(from: 0, to: bits.count, by: 8).map { start in
                (0..<8).reduce(UInt8(0)) { $0 | bits[start + $1] << $1 }
            })
    }
}
