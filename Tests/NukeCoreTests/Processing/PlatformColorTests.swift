import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

@Suite struct PlatformColorTests {
    @Test func componentsAreClampedLikeAnEightBitImageCanShow() {
        // Given components outside 0...1 and a NaN
        let color = PlatformColor(red: 1.5, green: -0.5, blue: .nan, alpha: 2)

        // Then they are clamped, and NaN becomes 0
        #expect(color == PlatformColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(color == .red)
    }

    @Test func commonColours() {
        #expect(PlatformColor.white == PlatformColor(red: 1, green: 1, blue: 1, alpha: 1))
        #expect(PlatformColor.black == PlatformColor(red: 0, green: 0, blue: 0))
        #expect(PlatformColor.clear.alpha == 0)
        #expect(PlatformColor.red.withAlphaComponent(0.5).alpha == 0.5)
        #expect(PlatformColor(white: 0.5) == .gray)
        #expect(Set([PlatformColor.red, .green, .blue, .white, .black, .clear]).count == 6)
    }

    @Test func descriptionIsNukesHexFormat() {
        // Opaque colours have no alpha byte; translucent ones do (components rounded to 0...255)
        #expect(PlatformColor.red.description == "#FF0000")
        #expect(PlatformColor.white.description == "#FFFFFF")
        #expect(PlatformColor.red.withAlphaComponent(0.5).description == "#FF000080")
        #expect(PlatformColor.clear.description == "#00000000")
        #expect(PlatformColor(red: 0.2, green: 0.4, blue: 0.6).description == "#336699")
    }

    @Test func premultipliedPixelValue() {
        #expect(PlatformColor.red.premultipliedRGBA == PlatformImage.RGBA(r: 255, g: 0, b: 0, a: 255))
        #expect(
            PlatformColor.white.withAlphaComponent(0.5).premultipliedRGBA
                == PlatformImage.RGBA(r: 128, g: 128, b: 128, a: 128))
    }
}

@Suite struct BorderTests {
    @Test func borderTakesAColourLikeNuke() {
        // Given a border written as in Nuke code
        let border = ImageProcessingOptions.Border(color: .red, width: 2)

        // Then its width is in pixels and its description is Nuke's
        #expect(border.width == 2)
        #expect(border.color == .red)
        #expect(border.description == "Border(color: #FF0000, width: 2.0 pixels)")
        #expect(ImageProcessingOptions.Border(color: .white).description == "Border(color: #FFFFFF, width: 1.0 pixels)")
    }

    @Test func pointsAndPixelsMakeTheSameBorder() {
        let points = ImageProcessingOptions.Border(color: .blue, width: 3, unit: .points)
        let pixels = ImageProcessingOptions.Border(color: .blue, width: 3, unit: .pixels)
        #expect(points == pixels)
        #expect(points.hashValue == pixels.hashValue)
        #expect(points.description == pixels.description)
    }

    @Test func premultipliedPixelInitializerKeepsWorking() {
        // Given borders made from pixel values, opaque and translucent
        let opaque = ImageProcessingOptions.Border(color: PlatformImage.RGBA(r: 255, g: 0, b: 16), width: 2)
        let translucent = ImageProcessingOptions.Border(color: PlatformImage.RGBA(r: 50, g: 0, b: 100, a: 100))

        // Then they describe the straight colour and draw the same bytes back
        #expect(opaque.description == "Border(color: #FF0010, width: 2.0 pixels)")
        #expect(opaque.color.premultipliedRGBA == PlatformImage.RGBA(r: 255, g: 0, b: 16))
        #expect(translucent.color.premultipliedRGBA == PlatformImage.RGBA(r: 50, g: 0, b: 100, a: 100))
        #expect(ImageProcessingOptions.Border(color: PlatformImage.RGBA(r: 0, g: 0, b: 0, a: 0)).color == .clear)
    }

    @Test func borderIsDrawnInItsColour() throws {
        // Given a blue image and a red 3-pixel border made with Nuke's spelling
        let blue = PlatformImage.RGBA(r: 0, g: 0, b: 255)
        let image = try TestImages.solid(width: 40, height: 40, color: blue)
        let processor = ImageProcessors.RoundedCorners(radius: 0, border: .init(color: .red, width: 3))

        // When
        let output = try #require(processor.process(image))

        // Then the edge is red and the centre still blue
        #expect(output.pixel(x: 20, y: 0) == PlatformImage.RGBA(r: 255, g: 0, b: 0))
        #expect(output.pixel(x: 0, y: 20) == PlatformImage.RGBA(r: 255, g: 0, b: 0))
        #expect(output.pixel(x: 20, y: 20) == blue)
    }
}
