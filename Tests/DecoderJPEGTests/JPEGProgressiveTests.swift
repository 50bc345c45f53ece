import DecoderJPEG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("JPEG progressive previews")
struct JPEGProgressiveTests {
    @Test("a progressive JPEG yields a preview for each completed scan, then the final image")
    func previews() throws {
        // Given a progressive file delivered in 40-byte chunks to one decoder
        let data = try fixture("progressive.jpg")
        let decoder = try #require(ImageDecoders.JPEG(context: context(data)))
        var previews: [ImageContainer] = []

        // When
        for end in stride(from: 40, to: data.count, by: 40) {
            if let preview = decoder.decodePartiallyDownloadedData(data.prefix(end)) {
                previews.append(preview)
            }
        }
        let final = try decoder.decode(data)

        // Then
        let scans = previews.compactMap { $0.userInfo[.scanNumberKey] as? Int }
        #expect(previews.count >= 3)
        #expect(scans == scans.sorted() && Set(scans).count == scans.count)
        #expect(previews.allSatisfy { $0.isPreview && $0.image.width == 64 && $0.image.height == 48 })
        // The first scan holds the DC coefficients: block averages already show the quadrants.
        if let first = previews.first {
            Quadrants.expectUpright(first.image, tolerance: 40, "first preview")
        }
        #expect(!final.isPreview)
        Quadrants.expectUpright(final.image, tolerance: 8)
    }

    @Test("the same scan count never produces a second preview")
    func noDuplicatePreviews() throws {
        let data = try fixture("progressive.jpg")
        let decoder = ImageDecoders.JPEG()
        let prefix = data.prefix(data.count * 2 / 3)

        #expect(decoder.decodePartiallyDownloadedData(prefix) != nil)
        #expect(decoder.decodePartiallyDownloadedData(prefix) == nil)
    }

    @Test("a baseline JPEG yields no previews")
    func baselineHasNoPreviews() throws {
        let data = try fixture("baseline.jpg")
        let decoder = ImageDecoders.JPEG()

        let previews = (1..<data.count).compactMap { decoder.decodePartiallyDownloadedData(data.prefix($0)) }

        #expect(previews.isEmpty)
    }

    @Test("previews follow the thumbnail and the orientation of the final image")
    func previewThumbnail() throws {
        // Given a progressive 400×300 file, asked for a 100 px thumbnail
        let image = Fixtures.photoLikeImage(width: 400, height: 300)
        let data = try #require(ImageEncoders.JPEG(quality: 0.9, isProgressive: true).encode(image))
        let decoder = try #require(ImageDecoders.JPEG(context: context(data, thumbnail: .init(maxPixelSize: 100))))

        // When
        let preview = try #require(decoder.decodePartiallyDownloadedData(data.prefix(data.count / 2)))

        // Then
        #expect(preview.image.width == 100 && preview.image.height == 75)
    }
}
