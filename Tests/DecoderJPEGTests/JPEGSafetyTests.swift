import DecoderJPEG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("JPEG decoder safety")
struct JPEGSafetyTests {
    @Test("empty data throws emptyData")
    func empty() {
        #expect(throws: ImageDecoders.JPEG.Error.emptyData) { try ImageDecoders.JPEG().decode(Data()) }
    }

    @Test("data that isn't JPEG throws invalidData with libjpeg's message")
    func notJPEG() {
        let error = #expect(throws: ImageDecoders.JPEG.Error.self) {
            try ImageDecoders.JPEG().decode(Data("this is not a jpeg file".utf8))
        }
        guard case let .invalidData(message) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(message.contains("JPEG"))
        #expect(error?.description.hasPrefix("JPEG decoding failed: ") == true)
    }

    @Test("data cut inside the image throws truncatedData")
    func truncated() throws {
        // Given a file cut in the middle of its (single) scan
        let image = Fixtures.photoLikeImage(width: 160, height: 120)
        let data = try #require(ImageEncoders.JPEG(quality: 0.9).encode(image))

        // Then
        let error = #expect(throws: ImageDecoders.JPEG.Error.self) {
            try ImageDecoders.JPEG().decode(data.prefix(data.count / 2))
        }
        guard case let .truncatedData(message) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(message == "Premature end of JPEG file")
    }

    @Test("a header claiming 65000×65000 pixels is rejected before any pixel is allocated")
    func hostileDimensions() throws {
        // Given a baseline file whose frame header claims 4.2 gigapixels (libjpeg's limit is 65500 a side)
        var bytes = [UInt8](try fixture("baseline.jpg"))
        let sof = try #require(startOfFrameOffset(in: Data(bytes)))
        bytes.replaceSubrange((sof + 1)..<(sof + 5), with: [0xFD, 0xE8, 0xFD, 0xE8])

        // Then
        #expect(
            throws: ImageDecoders.JPEG.Error.imageTooLarge(width: 65000, height: 65000, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.JPEG().decode(Data(bytes))
        }
    }

    @Test("the maximum pixel count is configurable")
    func configurableLimit() throws {
        let decoder = ImageDecoders.JPEG(configuration: .init(maximumPixelCount: 1000))
        #expect(throws: ImageDecoders.JPEG.Error.imageTooLarge(width: 64, height: 48, maximumPixelCount: 1000)) {
            try decoder.decode(try fixture("baseline.jpg"))
        }
    }

    @Test("a progressive file with more scans than allowed is rejected")
    func scanLimit() throws {
        let decoder = ImageDecoders.JPEG(configuration: .init(maximumScanCount: 2))
        #expect(throws: ImageDecoders.JPEG.Error.invalidData(message: "Too many scans (more than 2)")) {
            try decoder.decode(try fixture("progressive.jpg"))
        }
    }

    @Test(
        "every truncation and 300 random mutations return or throw, never crash",
        arguments: ["baseline", "progressive"])
    func corruptionSweep(_ name: String) throws {
        let sample = try fixture("\(name).jpg")

        let report = CorruptionSweep.run(decoder: ImageDecoders.JPEG(), sample: sample, mutationCount: 300)

        #expect(report.total == sample.count + 300)
        #expect(report.thrown >= sample.count / 2)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("JPEG decoding failed") })
    }

    @Test("previews of damaged data return or are nil, never crash")
    func previewSweep() throws {
        let sample = try fixture("progressive.jpg")

        let report = CorruptionSweep.run(decoder: ImageDecoders.JPEG(), sample: sample, mutationCount: 300) {
            _, data in
            // A fresh decoder per input, so that every input may produce a preview.
            ImageDecoders.JPEG().decodePartiallyDownloadedData(data)
        }

        #expect(report.thrown == 0)
        #expect(report.total == sample.count + 300)
    }
}
