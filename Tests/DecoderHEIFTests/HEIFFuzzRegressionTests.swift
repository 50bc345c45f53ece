import DecoderHEIF
import Foundation
import NukeCore
import Testing

/// Inputs the `heif` fuzz target (Fuzz/) found.
@Suite struct HEIFFuzzRegressionTests {
    /// The fuzz input `Tests/Fixtures/fuzz/<name>`.
    static func fixture(_ name: String) throws -> Data {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: tests.appendingPathComponent("Fixtures/fuzz/\(name)"))
    }

    @Test func anOverlayDeclaringAHugeCanvasIsRefusedBeforeLibheifAllocatesIt() throws {
        // translucent.heic with its primary item's type changed from 'hvc1' to 'iovl' (an overlay): libheif read
        // the overlay's canvas size from the HEVC bytes and allocated 714 MB for it, whatever the 96×64 'ispe' said
        // (an out-of-memory stop under -malloc_limit_mb=300).
        let data = try Self.fixture("heif-overlay-canvas")
        #expect(data.count == 1709)

        #expect {
            try ImageDecoders.HEIF(configuration: .init(maximumPixelCount: 1 << 20)).decode(data)
        } throws: { error in
            guard case let ImageDecoders.HEIF.Error.imageTooLarge(width, height, _) = error else { return false }
            return width * height > 1 << 20
        }
    }
}
