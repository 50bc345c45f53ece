import DecoderPNG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("PNG encoder")
struct PNGEncoderTests {
    @Test("an image with alpha round-trips within one level per channel")
    func roundTripAlpha() throws {
        // Given
        let image = try gradientImage(width: 37, height: 21, opaque: false)

        // When
        let data = try #require(ImageEncoders.PNG().encode(image))
        let decoded = try ImageDecoders.PNG().decode(data).image

        // Then (premultiplied → straight → premultiplied may move a value by one)
        #expect(AssetType(data) == .png)
        #expect(data[25] == 6)  // Colour type RGBA.
        #expect(try #require(ImageComparison.maximumDifference(image, decoded)) <= 1)
        #expect(!decoded.isOpaque)
    }

    @Test("an opaque image is written as RGB and round-trips exactly")
    func roundTripOpaque() throws {
        let image = try gradientImage(width: 20, height: 9, opaque: true)

        let data = try #require(ImageEncoders.PNG(isFast: true).encode(image))
        let decoded = try ImageDecoders.PNG().decode(data).image

        #expect(data[25] == 2)  // Colour type RGB.
        #expect(ImageComparison.psnr(image, decoded) == .infinity)
        #expect(decoded.isOpaque)
    }

    @Test("an empty image encodes to nil")
    func empty() {
        #expect(ImageEncoders.PNG().encode(PlatformImage()) == nil)
    }
}
