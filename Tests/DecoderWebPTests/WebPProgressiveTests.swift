import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("WebP incremental previews")
struct WebPProgressiveTests {
    @Test("partial data yields previews with more rows each time", arguments: [false, true])
    func previews(lossless: Bool) throws {
        // Given a 256×192 file delivered in 10 chunks to one decoder
        let source = Fixtures.photoLikeImage(width: 256, height: 192)
        let data = try #require(ImageEncoders.WebP(quality: 0.9, lossless: lossless).encode(source))
        let decoder = try #require(ImageDecoders.WebP(context: context(data)))
        let chunk = max(1, data.count / 10)

        // When
        var previews: [PlatformImage] = []
        for end in stride(from: chunk, to: data.count, by: chunk) {
            if let preview = decoder.decodePartiallyDownloadedData(data.prefix(end)) {
                #expect(preview.isPreview)
                previews.append(preview.image)
            }
        }

        // Then more and more rows are opaque; the rest is transparent
        let opaqueRows = previews.map { image in
            (0..<image.height).filter { image.pixel(x: 128, y: $0)?.a == 255 }.count
        }
        #expect(previews.count >= 2)
        #expect(previews.allSatisfy { $0.width == 256 && $0.height == 192 })
        #expect(opaqueRows == opaqueRows.sorted() && Set(opaqueRows).count == opaqueRows.count)
        #expect(opaqueRows.last ?? 0 < 192 || previews.count > 1)
        #expect(previews.first?.pixel(x: 128, y: 191)?.a == 0)
        #expect(try decoder.decode(data).image.width == 256)
        // The final decode released the incremental decoder: no more previews.
        #expect(decoder.decodePartiallyDownloadedData(data) == nil)
    }

    @Test("previews follow the thumbnail size")
    func previewThumbnail() throws {
        let data = try #require(
            ImageEncoders.WebP(quality: 0.9).encode(Fixtures.photoLikeImage(width: 400, height: 300)))
        let decoder = try #require(ImageDecoders.WebP(context: context(data, thumbnail: .init(maxPixelSize: 100))))

        let preview = try #require(decoder.decodePartiallyDownloadedData(data.prefix(data.count * 3 / 4)))

        #expect(preview.image.width == 100 && preview.image.height == 75)
    }
}
