import DecoderSVG
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// A 2:1 document: the left half red, the right half half-transparent blue.
let twoHalves = """
    <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
      <rect x="0" y="0" width="20" height="20" fill="#ff0000"/>
      <rect x="20" y="0" width="20" height="20" fill="#0000ff" fill-opacity="0.5"/>
    </svg>
    """

@Suite("SVG decoder")
struct SVGDecoderTests {
    @Test("renders at the intrinsic size with correct premultiplied RGBA")
    func intrinsicSize() throws {
        let container = try ImageDecoders.SVG().decode(Data(twoHalves.utf8))

        let image = container.image
        #expect(container.type == .svg && container.data == Data(twoHalves.utf8))
        #expect(image.width == 40 && image.height == 20)
        #expect(image.pixel(x: 10, y: 10) == PlatformImage.RGBA(r: 255, g: 0, b: 0, a: 255))
        #expect(ImageComparison.isClose(image.pixel(x: 30, y: 10), to: .init(r: 0, g: 0, b: 128, a: 128), tolerance: 1))
    }

    @Test(
        "renders at 3 thumbnail sizes, down and up, with the shape in place",
        arguments: [(CGFloat(20), 20, 10), (80, 80, 40), (400, 400, 200)])
    func thumbnailSizes(_ size: (maxPixelSize: CGFloat, width: Int, height: Int)) throws {
        let image = try render(twoHalves, thumbnail: .init(maxPixelSize: size.maxPixelSize))

        #expect(image.width == size.width && image.height == size.height)
        let left = try #require(image.pixel(x: size.width / 4, y: size.height / 2))
        let right = try #require(image.pixel(x: 3 * size.width / 4, y: size.height / 2))
        #expect(left == PlatformImage.RGBA(r: 255, g: 0, b: 0, a: 255))
        #expect(ImageComparison.isClose(right, to: .init(r: 0, g: 0, b: 128, a: 128), tolerance: 1))
        // The boundary is in the middle: the columns either side of it are red and blue.
        #expect(image.pixel(x: size.width / 2 - 1, y: 0)?.r == 255)
        #expect(image.pixel(x: size.width / 2, y: 0)?.b ?? 0 > 100)
    }

    @Test(
        "sizes by width/height, units, viewBox, or the default",
        arguments: [
            ("width=\"30\" height=\"60\"", 30, 60),
            ("width=\"2in\" height=\"1in\"", 192, 96),
            ("width=\"25.4mm\" height=\"72pt\"", 96, 96),
            ("viewBox=\"0 0 100 50\"", 100, 50),
            ("width=\"200\" viewBox=\"0 0 100 50\"", 200, 100),
            ("height=\"10\" viewBox=\"0 0 100 50\"", 20, 10),
            ("width=\"100%\" height=\"100%\" viewBox=\"0 0 7 9\"", 7, 9),
            ("", 300, 150),
            ("width=\"10.2\" height=\"4.5\"", 11, 5),
        ])
    func sizingRules(_ rule: (attributes: String, width: Int, height: Int)) throws {
        let image = try render(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" \(rule.attributes)><rect width=\"1\" height=\"1\"/></svg>")
        #expect(image.width == rule.width && image.height == rule.height, "\(rule.attributes)")
    }

    @Test("the request's scale multiplies the intrinsic size and becomes the image's scale")
    func scale() throws {
        let image = try render(twoHalves, scale: 2)
        #expect(image.width == 80 && image.height == 40 && image.scale == 2)
    }

    @Test("a thumbnail by size with aspectFit fits inside the box")
    func thumbnailBySize() throws {
        let thumbnail = ImageRequest.ThumbnailOptions(
            size: CGSize(width: 100, height: 100), unit: .pixels, contentMode: .aspectFit)
        let image = try render(twoHalves, thumbnail: thumbnail)
        #expect(image.width == 100 && image.height == 50)
    }

    @Test("matches by content, MIME type or .svg URL, never when the bytes are another format")
    func matching() throws {
        // An SVG whose <svg> tag is past the sniffed prefix (a 5 KB comment first)
        let late = "<!--" + String(repeating: "x", count: 5000) + "-->" + twoHalves

        #expect(ImageDecoders.SVG(context: context(twoHalves)) != nil)
        #expect(ImageDecoders.SVG(context: context(late)) == nil)
        #expect(ImageDecoders.SVG(context: context(late, mimeType: "image/svg+xml")) != nil)
        #expect(ImageDecoders.SVG(context: context(late, url: "/tmp/icon.SVG")) != nil)
        #expect(ImageDecoders.SVG(context: context(redPNG, url: "/tmp/icon.svg", mimeType: "image/svg+xml")) == nil)
        #expect(ImageDecoders.SVG(context: context("<html></html>", url: "/tmp/page.html")) == nil)
        let decoder = try #require(ImageDecoders.SVG(context: context(late, mimeType: "image/svg+xml")))
        #expect(try decoder.decode(Data(late.utf8)).image.width == 40)
    }

    @Test("register(in:) picks SVG data")
    func registers() {
        let registry = ImageDecoderRegistry()
        ImageDecoders.SVG.register(in: registry)
        #expect(registry.decoder(for: context(twoHalves)) is ImageDecoders.SVG)
        #expect(registry.decoder(for: context(redPNG)) == nil)
    }
}
