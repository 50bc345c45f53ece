import DecoderPNG
import Foundation
import NukeCore
import Testing

/// Bytes that stand for an ICC profile: the codec carries them without reading them.
func profileBytes(count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })
}

@Suite("PNG colour profiles")
struct PNGColorProfileTests {
    @Test("an ICC profile survives encoding and decoding (iCCP)")
    func iccRoundTrip() throws {
        // Given an image with an ICC profile
        var image = try gradientImage(width: 8, height: 6, opaque: true)
        image.colorProfile = .icc(profileBytes(count: 3000))

        // When it is encoded and decoded
        let data = try #require(ImageEncoders.PNG().encode(image))
        let decoded = try ImageDecoders.PNG().decode(data).image

        // Then the profile's bytes are back, with the pixels
        #expect(decoded.colorProfile == image.colorProfile)
        #expect(decoded.bytes == image.bytes)
    }

    @Test("a CICP description survives encoding and decoding (cICP)")
    func cicpRoundTrip() throws {
        var image = try gradientImage(width: 8, height: 6, opaque: false)
        image.colorProfile = .cicp(
            .init(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true))

        let data = try #require(ImageEncoders.PNG().encode(image))
        let decoded = try ImageDecoders.PNG().decode(data).image

        #expect(decoded.colorProfile == image.colorProfile)
    }

    @Test("an sRGB chunk means sRGB: no profile")
    func srgbChunk() throws {
        // Given a PNG with an sRGB chunk after its header
        let plain = try #require(ImageEncoders.PNG().encode(try gradientImage(width: 4, height: 4, opaque: true)))
        var data = Data(plain.prefix(33))
        data.append(contentsOf: PNGBytes.chunk("sRGB", [0]))
        data.append(plain.dropFirst(33))

        // When it is decoded
        let decoded = try ImageDecoders.PNG().decode(data).image

        // Then it has no profile
        #expect(decoded.colorProfile == nil)
        #expect(decoded.width == 4)
    }

    @Test("an iCCP chunk whose stream doesn't inflate is ignored, and the image decodes")
    func damagedICCP() throws {
        let plain = try #require(ImageEncoders.PNG().encode(try gradientImage(width: 4, height: 4, opaque: true)))
        var data = Data(plain.prefix(33))
        data.append(contentsOf: PNGBytes.chunk("iCCP", Array("ICC Profile".utf8) + [0, 0, 0x78, 0x9C, 1, 2, 3]))
        data.append(plain.dropFirst(33))

        let decoded = try ImageDecoders.PNG().decode(data).image

        #expect(decoded.colorProfile == nil)
        #expect(decoded.width == 4)
    }
}
