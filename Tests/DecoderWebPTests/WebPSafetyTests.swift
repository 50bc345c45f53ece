import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("WebP decoder safety")
struct WebPSafetyTests {
    @Test("empty data throws emptyData")
    func empty() {
        #expect(throws: ImageDecoders.WebP.Error.emptyData) { try ImageDecoders.WebP().decode(Data()) }
        #expect(throws: ImageDecoders.WebP.Error.emptyData) { try ImageDecoders.WebP.Animation(data: Data()) }
    }

    @Test("data that isn't WebP throws invalidData naming libwebp's status")
    func notWebP() {
        let error = #expect(throws: ImageDecoders.WebP.Error.self) {
            try ImageDecoders.WebP().decode(Data("RIFF\u{10}\0\0\0WEBPVP8 garbage-garbage".utf8))
        }
        #expect(error?.description.hasPrefix("WebP decoding failed: ") == true)
        #expect(error?.description.contains("VP8_STATUS") == true)
    }

    @Test("truncated data throws truncatedData")
    func truncated() throws {
        let data = try fixture("lossless-alpha.webp")
        #expect(throws: ImageDecoders.WebP.Error.truncatedData) {
            try ImageDecoders.WebP().decode(data.prefix(data.count - 10))
        }
    }

    @Test("a lossless header claiming 16384×16384 pixels is rejected before allocation")
    func hostileLossless() {
        #expect(
            throws: ImageDecoders.WebP.Error.imageTooLarge(width: 16384, height: 16384, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.WebP().decode(WebPBytes.lossless(width: 16384, height: 16384))
        }
    }

    @Test("an animation canvas claiming 60000×60000 pixels is rejected before allocation")
    func hostileCanvas() {
        let data = WebPBytes.animatedCanvas(width: 60000, height: 60000)
        #expect(
            throws: ImageDecoders.WebP.Error.imageTooLarge(width: 60000, height: 60000, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.WebP().decode(data)
        }
        #expect(ImageDecoders.WebP().decodePartiallyDownloadedData(data) == nil)
    }

    @Test("a canvas of 100000×100000 pixels (over 2³² pixels) is rejected by libwebp's own header check")
    func hostileHugeCanvas() {
        let error = #expect(throws: ImageDecoders.WebP.Error.self) {
            try ImageDecoders.WebP().decode(WebPBytes.animatedCanvas(width: 100_000, height: 100_000))
        }
        #expect(error?.description.contains("VP8_STATUS_BITSTREAM_ERROR") == true)
    }

    @Test("the maximum pixel count is configurable")
    func configurableLimit() throws {
        let decoder = ImageDecoders.WebP(configuration: .init(maximumPixelCount: 100))
        #expect(throws: ImageDecoders.WebP.Error.imageTooLarge(width: 64, height: 48, maximumPixelCount: 100)) {
            try decoder.decode(try fixture("lossy.webp"))
        }
    }

    @Test(
        "every truncation and 300 random mutations return or throw, never crash",
        arguments: ["lossy.webp", "lossless-alpha.webp", "lossy-alpha.webp", "animated.webp"])
    func corruptionSweep(_ name: String) throws {
        let sample = try fixture(name)

        let report = CorruptionSweep.run(decoder: ImageDecoders.WebP(), sample: sample, mutationCount: 300)

        #expect(report.total == sample.count + 300)
        #expect(report.thrown >= sample.count)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("WebP decoding failed") })
    }

    @Test("damaged animations and previews return or throw, never crash")
    func animationAndPreviewSweep() throws {
        let sample = try fixture("animated.webp")
        let animations = CorruptionSweep.run(decoder: ImageDecoders.WebP(), sample: sample, mutationCount: 300) {
            _, data in
            let animation = try ImageDecoders.WebP.Animation(data: data)
            try animation.forEachFrame { _ in }
            return nil
        }
        let previews = CorruptionSweep.run(
            decoder: ImageDecoders.WebP(), sample: try fixture("lossy-alpha.webp"), mutationCount: 300
        ) { _, data in
            ImageDecoders.WebP().decodePartiallyDownloadedData(data)
        }

        #expect(animations.thrown >= sample.count)
        #expect(previews.thrown == 0 && previews.total > 300)
    }
}
