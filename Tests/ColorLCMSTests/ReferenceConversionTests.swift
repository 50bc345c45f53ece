import ColorLCMS
import Foundation
import NukeCore
import Testing

/// Wide-gamut files made with Pillow (see Fixtures/make-fixtures.py), converted by the pipeline and compared with
/// lcms2's `transicc` on the same decoded pixels.
@Suite struct ReferenceConversionTests {
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var profile: String
        var description: String { file }
    }

    static let cases = [
        // Display P3 built with lcms2 (Fixtures/make-display-p3-icc.c), in a quality-95 JPEG.
        Case(file: "p3.jpg", profile: "DisplayP3.icc"),
        // Debian's icc-profiles-free: compatibleWithAdobeRGB1998.icc, in a PNG iCCP chunk.
        Case(file: "adobergb.png", profile: "AdobeRGB.icc"),
        // Debian's colord-data: ProPhotoRGB.icc, in a lossless WebP's ICCP chunk.
        Case(file: "prophoto.webp", profile: "ProPhotoRGB.icc"),
    ]

    @Test("the decoder hands over the embedded profile's bytes", arguments: cases)
    func decoderFindsProfile(_ item: Case) async throws {
        // Given a pipeline that keeps profiles
        let pipeline = makePipeline(converter: nil)

        // When the file is decoded
        let image = try await pipeline.image(for: try fixtureURL(item.file))

        // Then the image carries the profile that was embedded
        #expect(image.colorProfile == .icc(try fixture(item.profile)))
    }

    @Test("the pipeline converts to sRGB as transicc does (≤ 1 level on average, ≤ 2 anywhere)", arguments: cases)
    func matchesTransicc(_ item: Case) async throws {
        // Given the decoded pixels in the file's colour space, and transicc's conversion of them
        let original = try await makePipeline(converter: nil).image(for: try fixtureURL(item.file))
        let reference = try transiccReference(of: original, profile: try fixtureURL(item.profile))

        // When a pipeline with the converter loads the file
        let converted = try await makePipeline(converter: LCMSColorConverter()).image(for: try fixtureURL(item.file))

        // Then the pixels are sRGB, within a level of lcms2's floating-point reference, and visibly changed
        #expect(converted.colorProfile == nil)
        #expect(converted.width == original.width && converted.height == original.height)
        let difference = meanColorDifference(converted.bytes, reference)
        #expect(difference <= 1, "mean difference \(difference)")
        #expect(maximumColorDifference(converted.bytes, reference) <= 2)
        #expect(meanColorDifference(original.bytes, reference) > 2)
    }

    @Test("keeping the original profile leaves pixels and profile as decoded")
    func keepOriginal() async throws {
        // Given a pipeline with a converter whose policy keeps profiles
        let pipeline = makePipeline(converter: LCMSColorConverter(), policy: .keepOriginal)

        // When the P3 JPEG is loaded
        let kept = try await pipeline.image(for: try fixtureURL("p3.jpg"))

        // Then it is what a pipeline without a converter gives, profile included
        let original = try await makePipeline(converter: nil).image(for: try fixtureURL("p3.jpg"))
        #expect(kept == original)
        #expect(kept.colorProfile == .icc(try fixture("DisplayP3.icc")))
    }

    @Test("an image without a profile is untouched, bit for bit")
    func noProfile() async throws {
        let converter = LCMSColorConverter()
        let converted = try await makePipeline(converter: converter).image(for: try fixtureURL("noprofile.png"))
        let original = try await makePipeline(converter: nil).image(for: try fixtureURL("noprofile.png"))

        #expect(original.colorProfile == nil)
        #expect(converted == original)
        #expect(converter.cacheStatistics.transformsCreated == 0)
    }

    @Test("a thumbnail request converts the thumbnail")
    func thumbnail() async throws {
        // Given a thumbnail request for the P3 JPEG
        var request = ImageRequest(url: try fixtureURL("p3.jpg"))
        request.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: Float(16))

        // When it goes through pipelines with and without the converter
        let converted = try await makePipeline(converter: LCMSColorConverter()).image(for: request)
        let original = try await makePipeline(converter: nil).image(for: request)

        // Then both are the thumbnail's size, and only the converted one lost its profile
        #expect(converted.width == original.width && converted.height == original.height)
        #expect(original.colorProfile != nil)
        #expect(converted.colorProfile == nil)
        #expect(converted != original)
    }
}
