import DecoderWebP
import Foundation
import NukeCore
import Testing

@Suite("WebP colour profiles")
struct WebPColorProfileTests {
    @Test("an ICC profile survives encoding and decoding (ICCP)", arguments: [false, true])
    func roundTrip(lossless: Bool) throws {
        // Given an image with alpha and an ICC profile
        var image = try alphaSource()
        let profile = Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        image.colorProfile = .icc(profile)

        // When it is encoded and decoded
        let data = try #require(ImageEncoders.WebP(quality: 0.9, lossless: lossless).encode(image))
        let decoded = try ImageDecoders.WebP().decode(data).image

        // Then the profile is back, and the image still decodes at its size
        #expect(decoded.colorProfile == .icc(profile))
        #expect(decoded.width == image.width && decoded.height == image.height)
    }

    @Test("a file without ICCP has no profile")
    func noProfile() throws {
        let data = try #require(ImageEncoders.WebP(lossless: true).encode(try alphaSource()))

        #expect(try ImageDecoders.WebP().decode(data).image.colorProfile == nil)
    }
}
