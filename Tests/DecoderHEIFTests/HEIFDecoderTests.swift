@testable import DecoderHEIF
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("HEIF decoder")
struct HEIFDecoderTests {
    @Test(
        "the primary image matches heif-convert's decode of the same file",
        arguments: [("gradient", 40.0), ("translucent", 40.0), ("p3", 40.0), ("lossless", Double.infinity)])
    func matchesHeifConvert(_ name: String, minimumPSNR: Double) throws {
        let data = try fixture("\(name).heic")

        let container = try #require(ImageDecoders.HEIF(context: context(data))).decode(data)

        let expected = try reference(name)
        #expect(container.type == .heic)
        #expect(container.image.width == 96 && container.image.height == 64)
        let quality = try #require(ImageComparison.psnr(container.image, expected))
        #expect(quality >= minimumPSNR, "\(name): \(quality) dB")
    }

    @Test("an image without alpha is opaque; one with alpha is premultiplied")
    func alpha() throws {
        let opaque = try ImageDecoders.HEIF().decode(try fixture("gradient.heic")).image
        #expect(opaque.isOpaque)
        #expect(opaque.bytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })

        let translucent = try ImageDecoders.HEIF().decode(try fixture("translucent.heic")).image
        #expect(!translucent.isOpaque)
        // translucent.png's alpha is min(255, 3x + y): transparent at the top left, opaque on the right.
        #expect(try #require(translucent.pixel(x: 0, y: 0)).a < 8)
        #expect(try #require(translucent.pixel(x: 95, y: 63)).a == 255)
        let bytes = translucent.bytes
        #expect(bytes.enumerated().allSatisfy { index, value in index % 4 == 3 || value <= bytes[index | 3] })
    }

    @Test("irot is applied: the image is in display orientation, as heif-convert shows it")
    func rotation() throws {
        // A 64×64 gradient stored with an irot of 270° anticlockwise (pillow-heif's test image).
        let data = try fixture("pillow-heif/transform_mismatch_thumbnail.heic")

        let image = try ImageDecoders.HEIF().decode(data).image

        let expected = try reference("pillow-heif/transform_mismatch_thumbnail")
        #expect(try #require(ImageComparison.psnr(image, expected)) >= 40)
        // The same pixels without the rotation are something else: the test would see a missing irot.
        var unrotated = try PlatformImage(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 {
                unrotated.setPixel(try #require(expected.pixel(x: 63 - y, y: x)), x: x, y: y)
            }
        }
        #expect(try #require(ImageComparison.psnr(image, unrotated)) < 20)
    }

    @Test("a thumbnail request decodes a thumbnail item that covers it")
    func thumbnailItem() throws {
        let data = try fixture("thumbnail.heic")  // 96×64 with a 32×20 thumbnail item

        let small = try #require(
            ImageDecoders.HEIF(context: context(data, thumbnail: .init(maxPixelSize: 30)))
        ).decode(data)
        let large = try #require(
            ImageDecoders.HEIF(context: context(data, thumbnail: .init(maxPixelSize: 48)))
        ).decode(data)
        let full = try ImageDecoders.HEIF().decode(data)

        #expect(small.image.width == 32 && small.image.height == 20)
        #expect(large.image.width == 96 && large.image.height == 64)  // The item is smaller than 48×32.
        #expect(full.image.width == 96 && full.image.height == 64)
        // The thumbnail item is the same picture: its corners match the full image's.
        let corner = try #require(small.image.pixel(x: 31, y: 19))
        let fullCorner = try #require(full.image.pixel(x: 95, y: 63))
        #expect(abs(Int(corner.r) - Int(fullCorner.r)) < 24 && abs(Int(corner.g) - Int(fullCorner.g)) < 24)
    }

    @Test("a thumbnail item of another shape is not used")
    func thumbnailOfAnotherShape() throws {
        let data = try fixture("pillow-heif/aspect_mismatch_thumbnail.heic")  // 128×128, thumbnail 64×32

        let image = try #require(
            ImageDecoders.HEIF(context: context(data, thumbnail: .init(maxPixelSize: 16)))
        ).decode(data).image

        #expect(image.width == 128 && image.height == 128)
    }

    @Test("a thumbnail item in another orientation than the image is not used")
    func thumbnailInAnotherOrientation() throws {
        // The image has an irot of 270°; its 32×32 thumbnail item an irot of 0° (pillow-heif's test image).
        let data = try fixture("pillow-heif/transform_mismatch_thumbnail.heic")

        let image = try #require(
            ImageDecoders.HEIF(context: context(data, thumbnail: .init(maxPixelSize: 16)))
        ).decode(data).image

        #expect(image.width == 64 && image.height == 64)
        let expected = try reference("pillow-heif/transform_mismatch_thumbnail")
        #expect(try #require(ImageComparison.psnr(image, expected)) >= 40)
    }

    @Test("the primary image's ICC profile is found (Display P3), unchanged")
    func iccProfile() throws {
        let profile = try HEIFReader.primaryColorProfile(of: try fixture("p3.heic"))

        let icc = try #require(profile.icc)
        #expect(icc == (try fixture("p3.icc")))
        #expect(icc.range(of: Data("Display P3".utf8)) != nil)
        #expect(try HEIFReader.primaryColorProfile(of: try fixture("gradient.heic")).icc == nil)
        // pillow-heif's rotated file stores an nclx colour box and no ICC profile.
        let nclx = try HEIFReader.primaryColorProfile(of: try fixture("pillow-heif/transform_mismatch_thumbnail.heic"))
        #expect(nclx.icc == nil)
        #expect(nclx.nclx != nil)
    }

    @Test("the decoded image carries the file's ICC profile, or nothing for sRGB")
    func decodedImagesHandTheirProfileOver() throws {
        let p3 = try ImageDecoders.HEIF().decode(try fixture("p3.heic")).image
        #expect(p3.colorProfile == .icc(try fixture("p3.icc")))
        #expect(try ImageDecoders.HEIF().decode(try fixture("gradient.heic")).image.colorProfile == nil)
        // nclx values that mean sRGB (BT.709 primaries, sRGB transfer) hand nothing over; others are CICP.
        let described = try HEIFReader.primaryColorProfile(
            of: try fixture("pillow-heif/transform_mismatch_thumbnail.heic"))
        let image = try ImageDecoders.HEIF().decode(try fixture("pillow-heif/transform_mismatch_thumbnail.heic")).image
        #expect(image.colorProfile == described.handedOver)
    }

    @Test("the decoder accepts HEIC by its brands, not other formats")
    func recognition() throws {
        #expect(ImageDecoders.HEIF(context: context(try fixture("gradient.heic"))) != nil)
        #expect(ImageDecoders.HEIF(context: context(try fixture("gradient.png"))) == nil)
        // A generic HEIF brand with a HEIC compatible brand is HEIC too.
        var generic = try fixture("gradient.heic")
        generic.replaceSubrange(8..<12, with: Data("mif1".utf8))
        #expect(AssetType(generic) == .heic)
        #expect(try #require(ImageDecoders.HEIF(context: context(generic))).decode(generic).image.width == 96)
        // Generic brands only ('mif1', 'miaf'): AssetType reads the item types, finds the primary item coded as
        // HEVC, and the registry picks this decoder.
        var unbranded = generic
        let ftypEnd = Int(unbranded[3])  // ftyp: size, 'ftyp', major, minor version, compatible brands.
        var offset = 16
        while offset + 4 <= ftypEnd {
            if unbranded[offset..<(offset + 4)] == Data("heic".utf8) {
                unbranded.replaceSubrange(offset..<(offset + 4), with: Data("miaf".utf8))
            }
            offset += 4
        }
        #expect(AssetType(unbranded) == .heic)
        let decoded = try #require(ImageDecoders.HEIF(context: context(unbranded))).decode(unbranded)
        #expect(decoded.image.width == 96)
        #expect(decoded.type == .heic)
    }
}
