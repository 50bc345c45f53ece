import DecoderJPEG
import Foundation
import NukeCore
import Testing

/// Inputs the `jpeg` fuzz target (Fuzz/) found.
@Suite struct JPEGFuzzRegressionTests {
    /// The fuzz input `Tests/Fixtures/fuzz/<name>`.
    static func fixture(_ name: String) throws -> Data {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: tests.appendingPathComponent("Fixtures/fuzz/\(name)"))
    }

    @Test func anICCSegmentCountingZeroPiecesIsIgnored() throws {
        // A 10×10 JPEG whose second APP2 ICC_PROFILE segment says "piece 1 of 0": reading the profile built the
        // range 1...0, a runtime trap, before the decoder got to the pixels (CI's 25-second smoke run).
        let data = try Self.fixture("jpeg-icc-count-zero")

        let decoded = try ImageDecoders.JPEG().decode(data).image

        #expect(decoded.width == 10 && decoded.height == 10)
        #expect(decoded.colorProfile == nil)
    }
}
