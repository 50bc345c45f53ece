import Foundation
import NukeCore
import NukeTestKit
import Testing

@testable import DecoderJPEG

@Suite("JPEG 1/8 thumbnails of progressive files")
struct JPEGDCScanTests {
    /// A progressive 400×300 photo-like file (libjpeg's default progression: DC scans, then AC bands).
    static func progressivePhoto() throws -> Data {
        try #require(
            ImageEncoders.JPEG(quality: 0.9, isProgressive: true).encode(
                Fixtures.photoLikeImage(width: 400, height: 300)))
    }

    @Test("skipping the unused scans gives exactly the pixels of the full 1/8 decode", arguments: [0, 1])
    func sameAsFullDecode(_ input: Int) throws {
        // Given
        let data = input == 0 ? try Self.progressivePhoto() : try fixture("progressive.jpg")
        let thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 8)
        var full = JPEGDecoding(configuration: .init(), target: ImageDecodingTarget(thumbnail: thumbnail))
        full.skipsUnusedScansAtOneEighth = false
        let fast = JPEGDecoding(configuration: .init(), target: ImageDecodingTarget(thumbnail: thumbnail))

        // When
        let expected = try data.withUnsafeBytes { try full.decode($0, allowsTruncation: false) }
        let image = try data.withUnsafeBytes { try fast.decode($0, allowsTruncation: false) }

        // Then
        #expect(image.width == (input == 0 ? 50 : 8))
        #expect(ImageComparison.psnr(image, expected) == .infinity)
    }

    @Test("the reduced stream is a fraction of the file and decodes on its own")
    func reducedStream() throws {
        let data = try Self.progressivePhoto()

        let reduced = try #require(data.withUnsafeBytes { JPEGMarkers.scansNeededAtOneEighth(of: $0) })

        #expect(reduced.count < data.count * 3 / 4)
        #expect(reduced.suffix(2) == Data([0xFF, 0xD9]))
        let scans = reduced.withUnsafeBytes { JPEGMarkers.scans(in: $0) }
        #expect(scans.isProgressive && scans.completedScanCount >= 1)
    }

    @Test("baseline, partial and malformed files are not reduced")
    func notReduced() throws {
        let progressive = try Self.progressivePhoto()
        let baseline = try fixture("baseline.jpg")

        #expect(baseline.withUnsafeBytes { JPEGMarkers.scansNeededAtOneEighth(of: $0) } == nil)
        #expect(
            progressive.prefix(progressive.count - 2).withUnsafeBytes { JPEGMarkers.scansNeededAtOneEighth(of: $0) }
                == nil)
        #expect(Data("not a jpeg".utf8).withUnsafeBytes { JPEGMarkers.scansNeededAtOneEighth(of: $0) } == nil)
    }

    @Test("damaged progressive files still return or throw through the shortcut")
    func sweep() throws {
        let sample = try fixture("progressive.jpg")
        let decoder = try #require(
            ImageDecoders.JPEG(context: context(sample, thumbnail: .init(maxPixelSize: 8))))

        let report = CorruptionSweep.run(decoder: decoder, sample: sample, mutationCount: 300)

        #expect(report.total == sample.count + 300)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("JPEG decoding failed") })
    }
}
