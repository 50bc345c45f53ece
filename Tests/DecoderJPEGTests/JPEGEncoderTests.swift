import DecoderJPEG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("JPEG encoder")
struct JPEGEncoderTests {
    @Test("round-trips a photo-like image above 35 dB at quality 0.9", arguments: [false, true])
    func roundTrip(progressive: Bool) throws {
        // Given
        let image = Fixtures.photoLikeImage(width: 160, height: 120)

        // When
        let data = try #require(ImageEncoders.JPEG(quality: 0.9, isProgressive: progressive).encode(image))
        let decoded = try ImageDecoders.JPEG().decode(data).image

        // Then
        #expect(AssetType(data) == .jpeg)
        #expect(try #require(ImageComparison.psnr(image, decoded)) > 35)
        #expect(data.contains(Data([0xFF, 0xC2])) == progressive)  // SOF2 marks a progressive file.
    }

    @Test("lower quality makes smaller files")
    func quality() throws {
        let image = Fixtures.photoLikeImage(width: 160, height: 120)
        let small = try #require(ImageEncoders.JPEG(quality: 0.2).encode(image))
        let large = try #require(ImageEncoders.JPEG(quality: 0.95).encode(image))
        #expect(small.count < large.count)
    }

    @Test("an empty image encodes to nil")
    func empty() {
        #expect(ImageEncoders.JPEG().encode(PlatformImage()) == nil)
    }
}
