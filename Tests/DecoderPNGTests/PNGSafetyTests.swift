import DecoderPNG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("PNG decoder safety")
struct PNGSafetyTests {
    @Test("empty data throws emptyData")
    func empty() {
        #expect(throws: ImageDecoders.PNG.Error.emptyData) { try ImageDecoders.PNG().decode(Data()) }
    }

    @Test("data that isn't PNG throws invalidData with libpng's message")
    func notPNG() {
        let error = #expect(throws: ImageDecoders.PNG.Error.self) {
            try ImageDecoders.PNG().decode(Data("definitely not a png".utf8))
        }
        guard case let .invalidData(message) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(!message.isEmpty)
        #expect(error?.description.hasPrefix("PNG decoding failed: ") == true)
    }

    @Test("truncated data throws invalidData")
    func truncated() throws {
        let data = try fixture("rgba8.png")
        let error = #expect(throws: ImageDecoders.PNG.Error.self) {
            try ImageDecoders.PNG().decode(data.prefix(data.count - 30))
        }
        guard case .invalidData = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
    }

    @Test("a header claiming 100000×100000 pixels is rejected before any pixel is allocated")
    func hostileDimensions() {
        // Given a valid IHDR (correct CRC) that declares 10 gigapixels, and almost no image data
        let bytes =
            PNGBytes.signature + PNGBytes.header(width: 100_000, height: 100_000)
            + PNGBytes.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + PNGBytes.chunk("IEND", [])

        // Then
        #expect(
            throws: ImageDecoders.PNG.Error.imageTooLarge(
                width: 100_000, height: 100_000, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.PNG().decode(Data(bytes))
        }
    }

    @Test("the maximum pixel count is configurable")
    func configurableLimit() throws {
        let decoder = ImageDecoders.PNG(configuration: .init(maximumPixelCount: 100))
        #expect(throws: ImageDecoders.PNG.Error.imageTooLarge(width: 13, height: 11, maximumPixelCount: 100)) {
            try decoder.decode(try fixture("rgb8.png"))
        }
    }

    @Test("every truncation and 300 random mutations return or throw, never crash")
    func corruptionSweep() throws {
        // Given a small valid file
        let sample = try fixture("rgba8-interlaced.png")

        // When
        let report = CorruptionSweep.run(decoder: ImageDecoders.PNG(), sample: sample, mutationCount: 300)

        // Then every truncation failed (PNG needs its last chunks), and errors name the format
        #expect(report.total == sample.count + 300)
        #expect(report.thrown >= sample.count)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("PNG decoding failed") })
    }
}
