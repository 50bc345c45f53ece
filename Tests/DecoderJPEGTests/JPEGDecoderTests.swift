import DecoderJPEG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("JPEG decoder")
struct JPEGDecoderTests {
    @Test("decodes baseline, progressive, grayscale and CMYK files", arguments: ["baseline", "progressive", "cmyk"])
    func decodesColor(_ name: String) throws {
        // When
        let container = try ImageDecoders.JPEG().decode(try fixture("\(name).jpg"))

        // Then
        #expect(container.type == .jpeg)
        #expect(container.image.width == 64 && container.image.height == 48)
        #expect(container.image.isOpaque)
        Quadrants.expectUpright(container.image, tolerance: 8, "\(name)")
    }

    @Test("decodes grayscale to equal channels with the quadrants' luma")
    func decodesGray() throws {
        let image = try ImageDecoders.JPEG().decode(try fixture("gray.jpg")).image

        #expect(image.width == 64 && image.height == 48)
        let pixel = try #require(image.pixel(x: 16, y: 12))
        #expect(pixel.r == pixel.g && pixel.g == pixel.b && pixel.a == 255)
        // Luma of (230, 30, 30) is about 90.
        #expect(abs(Int(pixel.r) - 90) <= 4)
    }

    @Test("CMYK without Adobe's APP14 marker is read as regular (not inverted) CMYK")
    func cmykWithoutAdobeMarker() throws {
        // Given the CMYK fixture (inverted, as Adobe writes it) with its APP14 segment removed
        var bytes = [UInt8](try fixture("cmyk.jpg"))
        let app14 = try #require((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xEE })
        let length = Int(bytes[app14 + 2]) << 8 | Int(bytes[app14 + 3])
        bytes.removeSubrange(app14..<(app14 + 2 + length))

        // When
        let image = try ImageDecoders.JPEG().decode(Data(bytes)).image

        // Then the stored K (255 - 0, inverted) now reads as full black ink: the marker decides the inversion
        let pixel = try #require(image.pixel(x: 16, y: 12))
        #expect(ImageComparison.isClose(pixel, to: .init(r: 0, g: 0, b: 0), tolerance: 2))
    }

    @Test("applies each of the 8 EXIF orientations", arguments: 1...8)
    func appliesOrientation(_ orientation: Int) throws {
        // Given a file whose stored pixels are transformed so that its EXIF orientation shows them upright
        let data = try fixture("orientation-\(orientation).jpg")

        // When
        let image = try ImageDecoders.JPEG().decode(data).image

        // Then
        #expect(image.width == 64 && image.height == 48, "orientation \(orientation)")
        Quadrants.expectUpright(image, tolerance: 8, "orientation \(orientation)")
    }

    @Test("keeps the stored pixels when orientation is turned off")
    func orientationOff() throws {
        let decoder = ImageDecoders.JPEG(configuration: .init(appliesOrientation: false))
        let image = try decoder.decode(try fixture("orientation-6.jpg")).image
        #expect(image.width == 48 && image.height == 64)
    }

    @Test("matches JPEG by magic bytes; register(in:) picks it")
    func matching() throws {
        let jpeg = try fixture("baseline.jpg")
        let registry = ImageDecoderRegistry()
        ImageDecoders.JPEG.register(in: registry)

        #expect(ImageDecoders.JPEG(context: context(jpeg)) != nil)
        #expect(ImageDecoders.JPEG(context: context(Data("<svg></svg>".utf8))) == nil)
        #expect(registry.decoder(for: context(jpeg)) is ImageDecoders.JPEG)
        #expect(registry.decoder(for: context(Data([0x89, 0x50, 0x4E, 0x47]))) == nil)
    }
}

@Suite("JPEG thumbnails")
struct JPEGThumbnailTests {
    /// A 400×300 photo-like JPEG.
    static func photo() throws -> Data {
        try #require(ImageEncoders.JPEG(quality: 0.9).encode(Fixtures.photoLikeImage(width: 400, height: 300)))
    }

    @Test(
        "decodes with the smallest DCT scale that covers the thumbnail",
        arguments: [
            (maxPixelSize: CGFloat(40), width: 50, height: 38),  // 1/8
            (maxPixelSize: 60, width: 100, height: 75),  // 1/4: 1/8 would give 50 < 60
            (maxPixelSize: 100, width: 100, height: 75),  // 1/4 exactly
            (maxPixelSize: 150, width: 200, height: 150),  // 1/2
            (maxPixelSize: 250, width: 400, height: 300),  // full size
            (maxPixelSize: 1000, width: 400, height: 300),  // never upscaled
        ])
    func dctScale(_ thumbnail: (maxPixelSize: CGFloat, width: Int, height: Int)) throws {
        // Given
        let data = try Self.photo()
        let decoder = try #require(
            ImageDecoders.JPEG(context: context(data, thumbnail: .init(maxPixelSize: thumbnail.maxPixelSize))))

        // When
        let image = try decoder.decode(data).image

        // Then
        #expect(image.width == thumbnail.width && image.height == thumbnail.height)
    }

    @Test("a scaled decode shows the same picture as a full decode")
    func scaledContent() throws {
        let data = try fixture("baseline.jpg")
        let decoder = try #require(ImageDecoders.JPEG(context: context(data, thumbnail: .init(maxPixelSize: 16))))

        let image = try decoder.decode(data).image

        #expect(image.width == 16 && image.height == 12)  // 1/4
        Quadrants.expectUpright(image, tolerance: 12)
    }

    @Test("sizes the thumbnail in the displayed orientation")
    func thumbnailWithOrientation() throws {
        // Given a 48×64 stored image shown as 64×48, and a thumbnail 32 wide, 24 high (fill)
        let data = try fixture("orientation-6.jpg")
        let thumbnail = ImageRequest.ThumbnailOptions(
            size: CGSize(width: 32, height: 24), unit: .pixels, contentMode: .aspectFill)
        let decoder = try #require(ImageDecoders.JPEG(context: context(data, thumbnail: thumbnail)))

        // When
        let image = try decoder.decode(data).image

        // Then 1/2 scale, upright
        #expect(image.width == 32 && image.height == 24)
        Quadrants.expectUpright(image, tolerance: 12)
    }
}
