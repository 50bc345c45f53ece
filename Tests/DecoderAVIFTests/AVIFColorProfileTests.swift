import DecoderAVIF
import Foundation
import NukeCore
import Testing

@Suite("AVIF colour profiles")
struct AVIFColorProfileTests {
    func source() throws -> PlatformImage {
        var rgba: [UInt8] = []
        for index in 0..<(16 * 16) {
            rgba += [UInt8(index), UInt8(255 - index), 120, 255]
        }
        var image = try PlatformImage(width: 16, height: 16, rgba: rgba)
        image.isOpaque = true
        return image
    }

    @Test("an ICC profile survives encoding and decoding (colr prof)")
    func iccRoundTrip() throws {
        var image = try source()
        let profile = Data((0..<1500).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        image.colorProfile = .icc(profile)

        let data = try #require(ImageEncoders.AVIF(quality: 0.9, speed: 9).encode(image))
        let decoded = try ImageDecoders.AVIF().decode(data).image

        #expect(decoded.colorProfile == .icc(profile))
    }

    @Test("Display P3 primaries survive as a CICP description (colr nclx)")
    func cicpRoundTrip() throws {
        var image = try source()
        image.colorProfile = .cicp(
            .init(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 6, isFullRange: true))

        let data = try #require(ImageEncoders.AVIF(quality: 0.9, speed: 9).encode(image))
        let decoded = try ImageDecoders.AVIF().decode(data).image

        let cicp = try #require(decoded.colorProfile?.cicpValue)
        #expect(cicp.colorPrimaries == 12 && cicp.transferCharacteristics == 13)
    }

    @Test("an sRGB file has no profile")
    func srgb() throws {
        let data = try #require(ImageEncoders.AVIF(quality: 0.9, speed: 9).encode(try source()))

        #expect(try ImageDecoders.AVIF().decode(data).image.colorProfile == nil)
    }
}
