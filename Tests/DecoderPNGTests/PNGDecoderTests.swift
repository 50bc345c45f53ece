import DecoderPNG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("PNG decoder")
struct PNGDecoderTests {
    /// Every colour type and bit depth, palette with tRNS, colour keys and Adam7; 16-bit samples allow a
    /// rounding difference of 1 (2 after premultiplication).
    static let fixtures: [(name: String, isOpaque: Bool, tolerance: Int)] = [
        ("gray1", true, 0), ("gray2", true, 0), ("gray4", true, 0), ("gray8", true, 0), ("gray16", true, 1),
        ("rgb8", true, 0), ("rgb16", true, 1),
        ("palette1", true, 0), ("palette2", true, 0), ("palette4", true, 0), ("palette8", true, 0),
        ("palette8-trns", false, 0), ("palette2-trns-interlaced", false, 0),
        ("gray8-trns", false, 0), ("rgb8-trns", false, 0),
        ("gray-alpha8", false, 0), ("gray-alpha16", false, 2),
        ("rgba8", false, 0), ("rgba8-interlaced", false, 0), ("gray1-interlaced", true, 0), ("rgba16", false, 2),
    ]

    @Test("decodes every colour type and bit depth to the expected pixels", arguments: fixtures)
    func decodesFixture(_ fixture: (name: String, isOpaque: Bool, tolerance: Int)) throws {
        // Given a PNG and the straight RGBA it encodes
        let data = try DecoderPNGTests.fixture("\(fixture.name).png")
        let expectedRGBA = [UInt8](try DecoderPNGTests.fixture("\(fixture.name).rgba"))
        let expected = try PlatformImage(width: 13, height: 11, rgba: expectedRGBA, isPremultiplied: false)

        // When
        let container = try ImageDecoders.PNG().decode(data)

        // Then the pixels match, premultiplied
        let image = container.image
        #expect(container.type == .png)
        #expect(image.width == 13 && image.height == 11)
        #expect(image.bytesPerRow == 13 * 4)
        #expect(image.isOpaque == fixture.isOpaque)
        let difference = try #require(ImageComparison.maximumDifference(image, expected))
        #expect(difference <= fixture.tolerance, "\(fixture.name): max difference \(difference)")
    }

    @Test("a transparent palette entry is premultiplied to zero, a half-transparent one to half")
    func premultipliesPaletteAlpha() throws {
        // Given palette entries red α128, green α0, blue α255, white (no tRNS value, opaque)
        let image = try ImageDecoders.PNG().decode(try fixture("palette8-trns.png")).image

        // Then
        #expect(image.pixel(x: 0, y: 0) == PlatformImage.RGBA(r: 128, g: 0, b: 0, a: 128))
        #expect(image.pixel(x: 1, y: 0) == PlatformImage.RGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(image.pixel(x: 2, y: 0) == PlatformImage.RGBA(r: 0, g: 0, b: 255, a: 255))
        #expect(image.pixel(x: 3, y: 0) == PlatformImage.RGBA(r: 255, g: 255, b: 255, a: 255))
    }

    @Test("matches PNG by its magic bytes only")
    func matchesByContent() throws {
        let png = try fixture("rgb8.png")
        let notPNG = Data("GIF89a-not-a-png".utf8)
        let pngURL = URL(fileURLWithPath: "/tmp/image.png")

        #expect(ImageDecoders.PNG(context: ImageDecodingContext(request: ImageRequest(url: nil), data: png)) != nil)
        #expect(
            ImageDecoders.PNG(context: ImageDecodingContext(request: ImageRequest(url: pngURL), data: notPNG)) == nil)
    }

    @Test("register(in:) adds a factory that picks PNG data")
    func registers() throws {
        // Given a registry of our own
        let registry = ImageDecoderRegistry()
        ImageDecoders.PNG.register(in: registry)

        // Then
        let png = ImageDecodingContext(request: ImageRequest(url: nil), data: try fixture("rgb8.png"))
        let other = ImageDecodingContext(request: ImageRequest(url: nil), data: Data([0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(registry.decoder(for: png) is ImageDecoders.PNG)
        #expect(registry.decoder(for: other) == nil)
    }
}
