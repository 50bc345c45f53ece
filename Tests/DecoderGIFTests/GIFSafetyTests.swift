import DecoderGIF
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("GIF decoder safety")
struct GIFSafetyTests {
    @Test("empty data throws emptyData")
    func empty() {
        #expect(throws: ImageDecoders.GIF.Error.emptyData) { try ImageDecoders.GIF().decode(Data()) }
        #expect(throws: ImageDecoders.GIF.Error.emptyData) { try ImageDecoders.GIF.Animation(data: Data()) }
    }

    @Test("data that isn't GIF throws invalidData with giflib's message")
    func notGIF() {
        #expect(throws: ImageDecoders.GIF.Error.invalidData(message: "Data is not in GIF format")) {
            try ImageDecoders.GIF().decode(Data("PNG? no, just text".utf8))
        }
    }

    @Test("truncated data throws truncatedData with giflib's message")
    func truncated() throws {
        let data = try pillow("hopper.gif")
        let error = #expect(throws: ImageDecoders.GIF.Error.self) { try ImageDecoders.GIF().decode(data.prefix(2000)) }
        guard case .truncatedData = error else {
            Issue.record("expected truncatedData, got \(String(describing: error))")
            return
        }
        #expect(error?.description.hasPrefix("GIF decoding failed: the data is truncated (") == true)
    }

    @Test("a logical screen of 65535×65535 is rejected from the header, before giflib reads on")
    func hugeScreen() {
        // The header alone: giflib would fail on the missing color table, the size check comes first.
        let header = Data(GIFBytes.header(width: 65535, height: 65535).prefix(10))
        #expect(
            throws: ImageDecoders.GIF.Error.imageTooLarge(width: 65535, height: 65535, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.GIF().decode(header)
        }
        #expect(throws: ImageDecoders.GIF.Error.self) { try ImageDecoders.GIF.Animation(data: header) }
    }

    @Test("a frame larger than the limit is rejected before it is decoded")
    func hugeFrame() {
        // A 1×1 screen with a frame descriptor of 20000×20000 (400 MP).
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0] + GIFBytes.littleEndian(20000) + GIFBytes.littleEndian(20000) + [0, 2]
        let data = GIFBytes.file(width: 1, height: 1, frame + [2, 0x44, 0x01, 0])
        #expect(
            throws: ImageDecoders.GIF.Error.imageTooLarge(width: 20000, height: 20000, maximumPixelCount: 100_000_000)
        ) {
            try ImageDecoders.GIF().decode(data)
        }
    }

    @Test("the limits are configurable: pixels, frames, and total pixels across frames")
    func configurableLimits() throws {
        let chi = try pillow("chi.gif")  // 320×240, 31 frames
        #expect(throws: ImageDecoders.GIF.Error.imageTooLarge(width: 320, height: 240, maximumPixelCount: 1000)) {
            try ImageDecoders.GIF(configuration: .init(maximumPixelCount: 1000)).decode(chi)
        }
        #expect(throws: ImageDecoders.GIF.Error.tooManyFrames(maximumFrameCount: 30)) {
            try ImageDecoders.GIF.Animation(data: chi, configuration: .init(maximumFrameCount: 30))
        }
        #expect(throws: ImageDecoders.GIF.Error.animationTooLarge(maximumTotalPixelCount: 1_000_000)) {
            try ImageDecoders.GIF.Animation(data: chi, configuration: .init(maximumTotalPixelCount: 1_000_000))
        }
        #expect(try ImageDecoders.GIF.Animation(data: chi).frameCount == 31)
    }

    @Test("many tiny frames over a huge screen are stopped by the total-pixel limit before any canvas exists")
    func tinyFramesOverAHugeScreen() {
        // A 10000×10000 screen (within the 100 MP limit) with 20 frames of one pixel: a pass would return
        // 20 canvases of 400 MB.
        let frames = (0..<20).flatMap { _ in GIFBytes.pixelFrame(left: 0, top: 0) }
        let data = GIFBytes.file(width: 10000, height: 10000, frames)
        #expect(throws: ImageDecoders.GIF.Error.animationTooLarge(maximumTotalPixelCount: 1_000_000_000)) {
            try ImageDecoders.GIF.Animation(data: data)
        }
    }

    @Test(
        "every truncation and 300 seeded mutations return or throw, never crash",
        arguments: ["hopper.gif", "dispose_prev.gif", "dispose_bgnd_transparency.gif", "transparent_dispose.gif"])
    func corruptionSweep(_ name: String) throws {
        let sample = try pillow(name)

        let report = CorruptionSweep.run(decoder: ImageDecoders.GIF(), sample: sample, mutationCount: 300)

        // decode(_:) reads only the first frame: a truncation after it still decodes.
        #expect(report.total == sample.count + 300)
        #expect(report.thrown > 0 && report.decoded > 0)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("GIF decoding failed") })
    }

    @Test(
        "every frame of 300 seeded mutations of an animation decodes or throws, never crashes",
        arguments: ["dispose_prev.gif", "missing_background.gif", "dispose_bgnd_transparency.gif"])
    func animationCorruptionSweep(_ name: String) throws {
        let sample = try pillow(name)
        let configuration = ImageDecoders.GIF.Configuration(maximumPixelCount: 1 << 20)

        let report = CorruptionSweep.run(decoder: ImageDecoders.GIF(), sample: sample, mutationCount: 300) { _, data in
            let animation = try ImageDecoders.GIF.Animation(data: data, configuration: configuration)
            var last: PlatformImage?
            try animation.forEachFrame { last = $0.image }
            return last.map { ImageContainer(image: $0, type: .gif) }
        }

        #expect(report.total == sample.count + 300)
        #expect(report.thrown > 0 && report.decoded > 0)
        #expect(
            report.errorDescriptions.allSatisfy {
                $0.hasPrefix("GIF decoding failed") || $0.hasPrefix("The animation ended")
            })
    }
}
