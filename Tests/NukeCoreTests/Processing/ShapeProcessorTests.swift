import Foundation
import Testing

@testable import NukeCore

@Suite struct ShapeProcessorTests {
    private let blue = PlatformImage.RGBA(r: 10, g: 20, b: 230, a: 255)

    @Test func circleCropsToCentredSquareAndClearsCorners() throws {
        // Given a 60×40 image whose left and right 10 columns are a different colour
        let image = try TestImages.make(width: 60, height: 40) { x, _ in
            (10..<50).contains(x) ? blue : .init(r: 255, g: 0, b: 0)
        }

        // When it is cut to a circle
        let output = try #require(ImageProcessors.Circle().process(image))

        // Then it is the centred 40×40 square with transparent corners and an intact centre
        #expect(output.width == 40 && output.height == 40)
        for (x, y) in [(0, 0), (39, 0), (0, 39), (39, 39), (3, 3)] {
            #expect(output.pixel(x: x, y: y)?.a == 0)
        }
        #expect(output.pixel(x: 20, y: 20) == blue)
        #expect(output.pixel(x: 20, y: 1) == blue)  // just inside the top of the circle
        #expect(!output.isOpaque)
        // and the edge is anti-aliased, symmetric in both axes
        let edge = try #require(output.pixel(x: 2, y: 10))
        #expect(edge.a > 0 && edge.a < 255)
        #expect(output.pixel(x: 37, y: 10) == edge)
        #expect(output.pixel(x: 2, y: 29) == edge)
        #expect(Int(edge.b) <= Int(edge.a))
    }

    @Test func circleBorderIsDrawnInsideTheEdge() throws {
        // Given an image and a 3-pixel white border
        let image = try TestImages.solid(width: 50, height: 50, color: blue)
        let border = ImageProcessingOptions.Border(color: .init(r: 255, g: 255, b: 255), width: 3, unit: .pixels)

        // When it is cut to a circle with the border
        let output = try #require(ImageProcessors.Circle(border: border).process(image))

        // Then the border covers the outermost pixels of the circle and the centre is intact
        #expect(output.pixel(x: 25, y: 1) == .init(r: 255, g: 255, b: 255))
        #expect(output.pixel(x: 1, y: 25) == .init(r: 255, g: 255, b: 255))
        #expect(output.pixel(x: 25, y: 5) == blue)
        #expect(output.pixel(x: 25, y: 25) == blue)
        #expect(output.pixel(x: 0, y: 0)?.a == 0)
    }

    @Test func roundedCornersClearCornersAndKeepTheRest() throws {
        // Given an opaque image
        let image = try TestImages.texture(width: 80, height: 50)

        // When its corners are rounded with a 10-pixel radius
        let output = try #require(ImageProcessors.RoundedCorners(radius: 10, unit: .pixels).process(image))

        // Then the corners are transparent, the edges' middles and the centre are unchanged
        #expect(output.width == 80 && output.height == 50)
        for (x, y) in [(0, 0), (79, 0), (0, 49), (79, 49), (1, 1)] {
            #expect(output.pixel(x: x, y: y)?.a == 0)
        }
        for (x, y) in [(40, 25), (40, 0), (0, 25), (79, 25), (40, 49), (10, 10), (11, 0), (0, 11)] {
            #expect(output.pixel(x: x, y: y) == image.pixel(x: x, y: y), "(\(x), \(y))")
        }
        let edge = try #require(output.pixel(x: 7, y: 0))  // its centre is 9.8 pixels from the corner's centre
        #expect(edge.a > 0 && edge.a < 255)
        #expect(!output.isOpaque)
    }

    @Test func roundedCornersRadiusInPointsIsInPixelsWhateverTheImageScale() throws {
        // Given a scale-2 image
        let image = try TestImages.solid(width: 40, height: 40, color: blue, scale: 2)

        // When it is rounded with 5 points (5 pixels on Linux, as in Nuke without a screen)
        let output = try #require(ImageProcessors.RoundedCorners(radius: 5).process(image))

        // Then pixel (2, 2), outside a 10-pixel corner but inside a 5-pixel one, is kept; (0, 0) is cut
        #expect(output.pixel(x: 2, y: 2) == blue)
        #expect(output.pixel(x: 0, y: 0)?.a == 0)
        #expect(output.scale == 2)
        let pixels = try #require(ImageProcessors.RoundedCorners(radius: 5, unit: .pixels).process(image))
        #expect(output == pixels)
    }

    @Test func radiusLargerThanTheImageMakesAStadium() throws {
        // Given a wide image and a huge radius
        let image = try TestImages.solid(width: 60, height: 20, color: blue)

        // When it is rounded
        let output = try #require(ImageProcessors.RoundedCorners(radius: 1000, unit: .pixels).process(image))

        // Then the radius is limited to half the height: the middle of the top edge stays opaque
        #expect(output.pixel(x: 30, y: 0) == blue)
        #expect(output.pixel(x: 0, y: 0)?.a == 0)
        #expect(output.pixel(x: 0, y: 10)?.a ?? 0 > 0)
    }

    @Test func roundedCornersBorderFollowsTheEdge() throws {
        // Given an image and a 2-pixel border
        let image = try TestImages.solid(width: 40, height: 30, color: blue)
        let border = ImageProcessingOptions.Border(color: .init(r: 0, g: 255, b: 0), width: 2, unit: .pixels)

        // When its corners are rounded with the border
        let output = try #require(
            ImageProcessors.RoundedCorners(radius: 6, unit: .pixels, border: border).process(image))

        // Then the straight edges get the border and the inside is intact
        #expect(output.pixel(x: 20, y: 0) == .init(r: 0, g: 255, b: 0))
        #expect(output.pixel(x: 0, y: 15) == .init(r: 0, g: 255, b: 0))
        #expect(output.pixel(x: 20, y: 2) == blue)
        #expect(output.pixel(x: 0, y: 0)?.a == 0)
    }

    @Test func zeroRadiusWithoutBorderReturnsTheImage() throws {
        let image = try TestImages.texture(width: 9, height: 7)
        #expect(ImageProcessors.RoundedCorners(radius: 0).process(image) == image)
    }

    @Test func invalidParametersThrow() throws {
        let image = try TestImages.solid(width: 10, height: 10, color: blue)
        #expect(
            processingError(ImageProcessors.RoundedCorners(radius: -1, unit: .pixels), image)
                == .invalidParameter(name: "corner radius", value: -1))
        #expect(processingError(ImageProcessors.RoundedCorners(radius: .nan), image) != nil)
        let badBorder = ImageProcessingOptions.Border(color: blue, width: -2, unit: .pixels)
        #expect(
            processingError(ImageProcessors.Circle(border: badBorder), image)
                == .invalidParameter(name: "border width", value: -2))
        #expect(processingError(ImageProcessors.Circle(), PlatformImage()) == .emptyImage)
        #expect(processingError(ImageProcessors.RoundedCorners(radius: 4), PlatformImage()) == .emptyImage)
    }

    @Test func cropCopiesTheRectangle() throws {
        // Given an image with distinct pixels
        let image = try TestImages.make(width: 20, height: 10) { x, y in .init(r: UInt8(x), g: UInt8(y), b: 0) }

        // When a rectangle is cropped
        let output = try #require(ImageProcessors.Crop(rect: CGRect(x: 5, y: 2, width: 4, height: 3)).process(image))

        // Then exactly its pixels are kept
        #expect(output.width == 4 && output.height == 3)
        #expect(output.pixel(x: 0, y: 0) == .init(r: 5, g: 2, b: 0))
        #expect(output.pixel(x: 3, y: 2) == .init(r: 8, g: 4, b: 0))
    }

    @Test func cropClipsToTheImageAndRejectsMisses() throws {
        let image = try TestImages.texture(width: 20, height: 10)

        // A rectangle overlapping the edge is clipped
        let clipped = try #require(
            ImageProcessors.Crop(rect: CGRect(x: 15, y: -5, width: 100, height: 10)).process(image))
        #expect(clipped.width == 5 && clipped.height == 5)
        #expect(clipped.pixel(x: 0, y: 0) == image.pixel(x: 15, y: 0))
        // A rectangle with negative size is standardized
        let flipped = try #require(ImageProcessors.Crop(rect: CGRect(x: 4, y: 4, width: -2, height: -2)).process(image))
        #expect(flipped.width == 2 && flipped.pixel(x: 0, y: 0) == image.pixel(x: 2, y: 2))
        // Rectangles that miss the image, are empty or not finite throw
        for rect in [
            CGRect(x: 30, y: 0, width: 5, height: 5), CGRect(x: 0, y: 0, width: 0, height: 5),
            CGRect(x: CGFloat.nan, y: 0, width: 5, height: 5), CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 5),
        ] {
            guard case .cropRectOutsideImage = processingError(ImageProcessors.Crop(rect: rect), image) else {
                Issue.record("\(rect) was not rejected")
                continue
            }
        }
    }

    @Test func grayscaleUsesLumaAndKeepsAlpha() throws {
        // Given opaque primaries and a translucent pixel
        let image = try TestImages.make(width: 4, height: 1) { x, _ in
            [
                PlatformImage.RGBA(r: 255, g: 0, b: 0), .init(r: 0, g: 255, b: 0), .init(r: 0, g: 0, b: 255),
                .init(r: 100, g: 100, b: 100, a: 100),
            ][x]
        }

        // When it is converted
        let output = try #require(ImageProcessors.Grayscale().process(image))

        // Then each pixel is its Rec. 601 luma, alpha unchanged
        #expect(output.pixel(x: 0, y: 0) == .init(r: 77, g: 77, b: 77))
        #expect(output.pixel(x: 1, y: 0) == .init(r: 149, g: 149, b: 149))
        #expect(output.pixel(x: 2, y: 0) == .init(r: 29, g: 29, b: 29))
        #expect(output.pixel(x: 3, y: 0) == .init(r: 100, g: 100, b: 100, a: 100))
        #expect(processingError(ImageProcessors.Grayscale(), PlatformImage()) == .emptyImage)
    }
}
