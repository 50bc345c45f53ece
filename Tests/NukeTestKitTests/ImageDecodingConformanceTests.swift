import Foundation
import NukeCore
import NukeTestKit
import Testing

/// The decoding suite passes a strict decoder and fails one that makes up an image for garbage.
@Suite("ImageDecodingConformance")
struct ImageDecodingConformanceTests {
    /// "TINY", one byte of width, one of height, then width × height opaque RGBA pixels.
    private static func tiny(width: UInt8, height: UInt8) -> Data {
        Data("TINY".utf8) + Data([width, height]) + Data(repeating: 0xFF, count: Int(width) * Int(height) * 4)
    }

    private struct TinyError: Error {}

    /// Throws for anything that isn't a complete TINY file.
    private struct StrictDecoder: ImageDecoding {
        func decode(_ data: Data) throws -> ImageContainer {
            let bytes = [UInt8](data)
            guard bytes.count >= 6, bytes.starts(with: Array("TINY".utf8)) else { throw TinyError() }
            let (width, height) = (Int(bytes[4]), Int(bytes[5]))
            guard width > 0, height > 0, bytes.count >= 6 + width * height * 4 else { throw TinyError() }
            return ImageContainer(image: try PlatformImage(width: width, height: height))
        }
    }

    /// Decodes TINY files like ``StrictDecoder`` but returns a 1×1 image for anything else.
    private struct MakesImagesUp: ImageDecoding {
        func decode(_ data: Data) throws -> ImageContainer {
            if let container = try? StrictDecoder().decode(data) { return container }
            return ImageContainer(image: try PlatformImage(width: 1, height: 1))
        }
    }

    /// Decodes a truncated file at twice the size its header gives.
    private struct GrowsTruncatedFiles: ImageDecoding {
        func decode(_ data: Data) throws -> ImageContainer {
            if let container = try? StrictDecoder().decode(data) { return container }
            let bytes = [UInt8](data)
            guard bytes.count >= 6, bytes.starts(with: Array("TINY".utf8)) else { throw TinyError() }
            return ImageContainer(image: try PlatformImage(width: Int(bytes[4]) * 2, height: Int(bytes[5]) * 2))
        }
    }

    private static func suite(_ decoder: any ImageDecoding & Sendable) -> ImageDecodingConformance {
        ImageDecodingConformance(
            makeDecoder: { $0.data.starts(with: Data("TINY".utf8)) ? decoder : nil },
            samples: [.init(name: "6×4", data: tiny(width: 6, height: 4), width: 6, height: 4)],
            mutationCount: 50)
    }

    @Test func aStrictDecoderPassesEveryCheck() throws {
        let suite = Self.suite(StrictDecoder())

        for check in suite.checks {
            #expect(throws: Never.self, "\(check)") { try suite.run(check) }
        }
    }

    @Test func aDecoderThatReturnsOnePixelForGarbageFails() throws {
        // Given a decoder that returns a 1×1 image for anything it can't read
        let suite = Self.suite(MakesImagesUp())
        let check = try #require(suite.checks.first { $0.name == "rejectsGarbage" })

        // When running the garbage check and the whole suite
        let failure = #expect(throws: ImageDecodingConformance.Failure.self) { try suite.run(check) }
        let whole = #expect(throws: ImageDecodingConformance.Failure.self) { try suite.runAll() }

        // Then both fail, saying what was made up from what
        #expect(failure?.check == "rejectsGarbage")
        #expect(failure?.message.contains("text (55 bytes, no valid header) decoded to 1×1") == true)
        #expect(whole != nil)
    }

    @Test func aTruncatedFileMustNotDecodeLargerThanTheWholeFile() throws {
        let suite = Self.suite(GrowsTruncatedFiles())
        let check = try #require(suite.checks.first { $0.name == "survivesTruncation" })

        let failure = #expect(throws: ImageDecodingConformance.Failure.self) { try suite.run(check) }

        #expect(failure?.message.contains("decoded to 12×8, larger than the whole file (6×4)") == true)
    }
}
