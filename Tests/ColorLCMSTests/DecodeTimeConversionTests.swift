import ColorLCMS
import DecoderJPEG
import Foundation
import NukeCore
import Testing

/// A JPEG decoder given the pipeline's converter (`ImageDecodingContext.colorConverter`) converts rows to sRGB as
/// libjpeg writes them; the result must be the image the pipeline got before: decoded, then converted.
@Suite struct DecodeTimeConversionTests {
    func context(_ data: Data, converter: (any ColorConverting)?, thumbnail: Int? = nil) -> ImageDecodingContext {
        var request = ImageRequest(id: "p3", data: { data })
        request.thumbnail = thumbnail.map { ImageRequest.ThumbnailOptions(maxPixelSize: Float($0)) }
        var context = ImageDecodingContext(request: request, data: data)
        context.colorConverter = converter
        return context
    }

    /// A `width`×`height` Display P3 JPEG of saturated gradients.
    func p3JPEG(width: Int, height: Int) throws -> Data {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                rgba[index] = UInt8(x * 255 / max(1, width - 1))
                rgba[index + 1] = UInt8(y * 255 / max(1, height - 1))
                rgba[index + 2] = UInt8((x + y) % 256)
            }
        }
        var image = try makeImage(width: width, height: height, rgba: rgba, opaque: true)
        image.colorProfile = .icc(try fixture("DisplayP3.icc"))
        return try #require(ImageEncoders.JPEG(quality: 0.9).encode(image))
    }

    /// The image decoded without a converter, then converted: what the pipeline did before decoders converted.
    func decodedThenConverted(_ data: Data, converter: LCMSColorConverter) throws -> PlatformImage {
        var image = try ImageDecoders.JPEG().decode(data).image
        #expect(image.colorProfile != nil)
        try converter.convertToSRGB(&image)
        return image
    }

    @Test(
        "a full-size decode converts while decoding, to the same pixels as converting afterwards",
        arguments: [(width: 37, height: 23), (width: 1500, height: 1100), (width: 700, height: 3000)])
    func sameAsAfterwards(width: Int, height: Int) throws {
        // Given a Display P3 JPEG (the larger ones have several bands of rows, converted on other threads)
        let data = try p3JPEG(width: width, height: height)
        let converter = LCMSColorConverter()

        // When it is decoded with the converter in its context
        let decoder = try #require(ImageDecoders.JPEG(context: context(data, converter: converter)))
        let image = try decoder.decode(data).image

        // Then it comes back in sRGB, without a profile, pixel for pixel what converting afterwards gives
        #expect(image.colorProfile == nil)
        #expect(image.width == width && image.height == height)
        #expect(image.bytes == (try decodedThenConverted(data, converter: converter).bytes))
    }

    @Test("the real Display P3 photo converts while decoding as it does afterwards")
    func realFile() throws {
        let data = try fixture("p3.jpg")
        let converter = LCMSColorConverter()
        let decoder = try #require(ImageDecoders.JPEG(context: context(data, converter: converter)))

        let image = try decoder.decode(data).image

        #expect(image.colorProfile == nil)
        #expect(image.bytes == (try decodedThenConverted(data, converter: converter).bytes))
    }

    @Test("a thumbnail decode keeps the profile: the pipeline converts the smaller thumbnail")
    func thumbnailKeepsProfile() throws {
        let data = try p3JPEG(width: 640, height: 480)
        let decoder = try #require(
            ImageDecoders.JPEG(context: context(data, converter: LCMSColorConverter(), thumbnail: 64)))

        let image = try decoder.decode(data).image

        #expect(image.colorProfile == .icc(try fixture("DisplayP3.icc")))
        #expect(image.width < 640)
    }

    @Test("a converter that converts only whole images leaves the profile for the pipeline")
    func wholeImageConverter() throws {
        // Given a converter without row support (ColorConverting's default makeRowConverter)
        struct WholeImageOnly: ColorConverting {
            func convertToSRGB(_ image: inout PlatformImage) throws { image.colorProfile = nil }
        }
        let data = try p3JPEG(width: 64, height: 48)
        let decoder = try #require(ImageDecoders.JPEG(context: context(data, converter: WholeImageOnly())))

        // When decoded, the pixels are as decoded and the profile is there to be converted
        let image = try decoder.decode(data).image
        #expect(image.colorProfile == .icc(try fixture("DisplayP3.icc")))
        #expect(image.bytes == (try ImageDecoders.JPEG().decode(data).image.bytes))
    }

    @Test("a file cut short fails as before while bands are being converted, and a damaged profile is left alone")
    func failures() throws {
        // A 1500×1100 file cut in its last third: some bands were handed to other threads before libjpeg stops
        let data = try p3JPEG(width: 1500, height: 1100)
        let converter = LCMSColorConverter()
        let cut = data.prefix(data.count * 2 / 3)
        let decoder = try #require(ImageDecoders.JPEG(context: context(cut, converter: converter)))
        #expect(throws: ImageDecoders.JPEG.Error.self) { try decoder.decode(cut) }

        // A profile lcms2 rejects: no row converter, the decoder hands the profile over as it is
        var image = try makeImage(width: 16, height: 16, rgba: [UInt8](repeating: 255, count: 1024), opaque: true)
        let icc = try fixture("DisplayP3.icc")
        image.colorProfile = .icc(icc.prefix(icc.count / 2))
        let damaged = try #require(ImageEncoders.JPEG().encode(image))
        let damagedDecoder = try #require(ImageDecoders.JPEG(context: context(damaged, converter: converter)))
        #expect(try damagedDecoder.decode(damaged).image.colorProfile == image.colorProfile)
    }
}
