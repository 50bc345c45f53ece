import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

struct ResizeCase: Sendable, CustomTestStringConvertible {
    var width: Int
    var height: Int
    var scale: Double = 1
    var processor: ImageProcessors.Resize
    var expected: (width: Int, height: Int)

    var testDescription: String { "\(width)×\(height)@\(scale)x \(processor) → \(expected)" }
}

private func px(_ width: Double, _ height: Double) -> CGSize {
    CGSize(width: width, height: height)
}

@Suite struct ResizeTests {
    static let sizeCases: [ResizeCase] = [
        // fill / fit
        .init(width: 400, height: 200, processor: .init(size: px(100, 100), unit: .pixels), expected: (200, 100)),
        .init(
            width: 400, height: 200, processor: .init(size: px(100, 100), unit: .pixels, contentMode: .aspectFit),
            expected: (100, 50)),
        // crop only applies to aspectFill
        .init(
            width: 400, height: 200, processor: .init(size: px(100, 100), unit: .pixels, crop: true),
            expected: (100, 100)),
        .init(
            width: 400, height: 200,
            processor: .init(size: px(100, 100), unit: .pixels, contentMode: .aspectFit, crop: true),
            expected: (100, 50)),
        // no upscaling unless asked
        .init(width: 40, height: 20, processor: .init(size: px(100, 100), unit: .pixels), expected: (40, 20)),
        .init(
            width: 40, height: 20, processor: .init(size: px(100, 100), unit: .pixels, upscale: true),
            expected: (200, 100)),
        .init(
            width: 40, height: 20,
            processor: .init(size: px(100, 100), unit: .pixels, contentMode: .aspectFit, upscale: true),
            expected: (100, 50)),
        // crop without upscaling crops to the target's aspect ratio at the image's own size (as in Nuke);
        // with upscaling it is exact
        .init(
            width: 40, height: 20, processor: .init(size: px(30, 30), unit: .pixels, crop: true),
            expected: (20, 20)),
        .init(
            width: 640, height: 480, processor: .init(size: px(960, 960), unit: .pixels, crop: true),
            expected: (480, 480)),
        .init(
            width: 640, height: 480, processor: .init(size: px(1000, 100), unit: .pixels, crop: true),
            expected: (640, 64)),
        .init(
            width: 100, height: 200, processor: .init(size: px(500, 500), unit: .pixels, crop: true),
            expected: (100, 100)),
        .init(
            width: 640, height: 480, processor: .init(size: px(640, 100), unit: .pixels, crop: true),
            expected: (640, 100)),
        .init(
            width: 640, height: 480, processor: .init(size: px(960, 960), unit: .pixels, crop: true, upscale: true),
            expected: (960, 960)),
        .init(
            width: 40, height: 20, processor: .init(size: px(30, 30), unit: .pixels, crop: true, upscale: true),
            expected: (30, 30)),
        // one side only; the other follows the aspect ratio without a cap
        .init(width: 400, height: 200, processor: .init(width: 100, unit: .pixels), expected: (100, 50)),
        .init(width: 400, height: 200, processor: .init(height: 50, unit: .pixels), expected: (100, 50)),
        .init(width: 100, height: 1000, processor: .init(width: 50, unit: .pixels), expected: (50, 500)),
        .init(width: 1000, height: 100, processor: .init(height: 50, unit: .pixels), expected: (500, 50)),
        .init(width: 40, height: 20, processor: .init(width: 80, unit: .pixels), expected: (40, 20)),
        .init(width: 40, height: 20, processor: .init(width: 80, unit: .pixels, upscale: true), expected: (80, 40)),
        // odd sizes round to whole pixels
        .init(
            width: 333, height: 77,
            processor: .init(size: px(100, 100), unit: .pixels, contentMode: .aspectFit), expected: (100, 23)),
        .init(width: 333, height: 77, processor: .init(size: px(100, 100), unit: .pixels), expected: (333, 77)),
        .init(
            width: 333, height: 77, processor: .init(size: px(50, 50), unit: .pixels, crop: true),
            expected: (50, 50)),
        .init(
            width: 399, height: 201, processor: .init(size: px(7, 5), unit: .pixels, crop: true), expected: (7, 5)),
        // 1×N and N×1, never a zero side
        .init(
            width: 1, height: 1000,
            processor: .init(size: px(100, 100), unit: .pixels, contentMode: .aspectFit), expected: (1, 100)),
        .init(
            width: 1000, height: 1,
            processor: .init(size: px(100, 100), unit: .pixels, contentMode: .aspectFit), expected: (100, 1)),
        .init(
            width: 1000, height: 3,
            processor: .init(size: px(10, 10), unit: .pixels, contentMode: .aspectFit), expected: (10, 1)),
        .init(width: 1, height: 1000, processor: .init(height: 10, unit: .pixels), expected: (1, 10)),
        // a point is a pixel on Linux, whatever the image's scale (Nuke uses the screen scale, 1 without one)
        .init(
            width: 400, height: 200, scale: 2, processor: .init(size: px(50, 50), contentMode: .aspectFit),
            expected: (50, 25)),
        .init(width: 400, height: 200, scale: 3, processor: .init(width: 20), expected: (20, 10)),
        .init(
            width: 400, height: 200, scale: 2, processor: .init(size: px(25, 25), crop: true), expected: (25, 25)),
    ]

    @Test(arguments: sizeCases)
    func outputSize(_ resizeCase: ResizeCase) throws {
        // Given an image
        let image = try TestImages.texture(width: resizeCase.width, height: resizeCase.height)
        var scaled = image
        scaled.scale = resizeCase.scale

        // When it is resized
        let output = try #require(resizeCase.processor.process(scaled))

        // Then the output has exactly the expected size and keeps the scale
        #expect(output.width == resizeCase.expected.width)
        #expect(output.height == resizeCase.expected.height)
        #expect(output.scale == resizeCase.scale)
    }

    @Test(arguments: sizeCases)
    func solidColourStaysExactlyTheSame(_ resizeCase: ResizeCase) throws {
        for color in [
            PlatformImage.RGBA(r: 12, g: 200, b: 99, a: 255), PlatformImage.RGBA(r: 60, g: 30, b: 10, a: 100),
        ] {
            // Given a solid image (opaque, then translucent)
            let image = try TestImages.solid(
                width: resizeCase.width, height: resizeCase.height, color: color, scale: resizeCase.scale)

            // When it is resized
            let output = try #require(resizeCase.processor.process(image))

            // Then every pixel is exactly the colour
            #expect(Set(TestImages.pixels(output)) == [color])
        }
    }

    @Test func largeImageSplitAcrossCoresStaysExact() throws {
        // Given an image large enough to be split into bands
        let color = PlatformImage.RGBA(r: 1, g: 128, b: 254, a: 255)
        let image = try TestImages.solid(width: 900, height: 700, color: color)

        // When it is shrunk by a factor that uses both the box and the filter stage
        let output = try #require(ImageProcessors.Resize(width: 101, unit: .pixels).process(image))

        // Then
        #expect(output.width == 101 && output.height == 79)
        #expect(Set(TestImages.pixels(output)) == [color])
        #expect(output.isOpaque == image.isOpaque)
    }

    @Test(arguments: [37, 50, 60, 119])
    func transparentBorderGetsNoDarkFringe(side: Int) throws {
        // Given an opaque red square in a transparent border
        let red = (r: 200, g: 30, b: 30)
        let image = try TestImages.make(width: 120, height: 120) { x, y in
            (30..<90).contains(x) && (30..<90).contains(y)
                ? .init(r: UInt8(red.r), g: UInt8(red.g), b: UInt8(red.b), a: 255) : .init(r: 0, g: 0, b: 0, a: 0)
        }

        // When it is resized
        let output = try #require(
            ImageProcessors.Resize(size: px(Double(side), Double(side)), unit: .pixels).process(image))

        // Then every pixel, however transparent, has the square's colour (no dark or coloured halo)
        var edgePixels = 0
        for pixel in TestImages.pixels(output) {
            let a = Int(pixel.a)
            if a > 0 && a < 255 { edgePixels += 1 }
            #expect(abs(Int(pixel.r) - (red.r * a + 127) / 255) <= 1, "\(pixel)")
            #expect(abs(Int(pixel.g) - (red.g * a + 127) / 255) <= 1, "\(pixel)")
            #expect(abs(Int(pixel.b) - (red.b * a + 127) / 255) <= 1, "\(pixel)")
        }
        #expect(edgePixels > 0)
    }

    @Test(arguments: [(256, 32), (256, 37), (240, 64), (256, 100)])
    func checkerboardBecomesUniformGrey(source: Int, target: Int) throws {
        // Given a 1-pixel black and white checkerboard
        let image = try TestImages.checkerboard(width: source, height: source, cell: 1)

        // When it is shrunk by a large factor
        let output = try #require(
            ImageProcessors.Resize(size: px(Double(target), Double(target)), unit: .pixels).process(image))

        // Then it is uniform grey: no aliasing pattern
        #expect(output.width == target)
        let values = TestImages.pixels(output).map { Int($0.r) }
        #expect(values.min()! >= 124, "\(values.min()!)")
        #expect(values.max()! <= 131, "\(values.max()!)")
    }

    @Test(arguments: [(101, 61, 37, 23), (100, 60, 33, 20), (64, 64, 17, 17), (999, 13, 100, 1)])
    func imageCentreDoesNotMove(width: Int, height: Int, targetWidth: Int, targetHeight: Int) throws {
        // Given an image symmetric about its centre lines, with sharp features
        let image = try TestImages.make(width: width, height: height) { x, y in
            let dx = min(x, width - 1 - x)
            let dy = min(y, height - 1 - y)
            let v = UInt8((dx * 37 + dy * 11) % 256)
            return .init(r: v, g: dx % 2 == 0 ? 255 : 0, b: UInt8(dy % 256), a: 255)
        }

        // When it is resized to an exact size (fill + crop)
        let processor = ImageProcessors.Resize(
            size: px(Double(targetWidth), Double(targetHeight)), unit: .pixels, crop: true)
        let output = try #require(processor.process(image))

        // Then the output is symmetric too (rounding aside)
        #expect(output.width == targetWidth && output.height == targetHeight)
        for y in 0..<targetHeight {
            for x in 0..<targetWidth {
                let pixel = try #require(output.pixel(x: x, y: y))
                let mirroredX = try #require(output.pixel(x: targetWidth - 1 - x, y: y))
                let mirroredY = try #require(output.pixel(x: x, y: targetHeight - 1 - y))
                #expect(abs(Int(pixel.r) - Int(mirroredX.r)) <= 1 && abs(Int(pixel.r) - Int(mirroredY.r)) <= 1)
                #expect(abs(Int(pixel.g) - Int(mirroredX.g)) <= 1 && abs(Int(pixel.b) - Int(mirroredY.b)) <= 1)
            }
        }
    }

    @Test func upscalingInterpolatesSmoothly() throws {
        // Given a horizontal ramp
        let image = try TestImages.make(width: 8, height: 2) { x, _ in
            .init(r: UInt8(x * 32), g: 0, b: 0, a: 255)
        }

        // When it is upscaled 4×
        let output = try #require(
            ImageProcessors.Resize(width: 32, unit: .pixels, upscale: true).process(image))

        // Then the middle of the ramp increases monotonically
        let reds = (4..<28).map { Int(output.pixel(x: $0, y: 0)!.r) }
        #expect(zip(reds, reds.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(reds.first! < reds.last!)
    }

    @Test func invalidInputsThrowTypedErrors() throws {
        let image = try TestImages.solid(width: 10, height: 10, color: .init(r: 1, g: 2, b: 3))

        // Empty image
        #expect(processingError(ImageProcessors.Resize(width: 5), PlatformImage()) == .emptyImage)
        #expect(ImageProcessors.Resize(width: 5).process(PlatformImage()) == nil)
        // Zero, negative and non-finite targets
        #expect(
            processingError(ImageProcessors.Resize(size: .zero), image) == .invalidTargetSize(width: 0, height: 0))
        #expect(
            processingError(ImageProcessors.Resize(width: -4, unit: .pixels), image)
                == .invalidTargetSize(width: -4, height: .infinity))
        #expect(processingError(ImageProcessors.Resize(height: .nan), image) != nil)
        #expect(processingError(ImageProcessors.Resize(width: .infinity), image) != nil)
        #expect(ImageProcessors.Resize(size: px(0, 10)).process(image) == nil)
        // Upscaling past the pixel limit
        let huge = ImageProcessors.Resize(size: px(1e6, 1e6), unit: .pixels, upscale: true)
        #expect(processingError(huge, image) == .outputTooLarge(width: 1e6, height: 1e6))
        let hugeCrop = ImageProcessors.Resize(size: px(1e6, 1e6), unit: .pixels, crop: true, upscale: true)
        #expect(processingError(hugeCrop, image) == .outputTooLarge(width: 1e6, height: 1e6))
        // Absurd but finite targets without upscaling leave the image as it is
        for processor in [
            ImageProcessors.Resize(size: px(1e30, 1e30), crop: true), ImageProcessors.Resize(width: 1e30),
            ImageProcessors.Resize(size: px(1e30, 1e-30), unit: .pixels, contentMode: .aspectFit),
        ] {
            #expect(processor.process(image)?.width ?? 0 >= 1, "\(processor)")
        }
        // Sizes are stored as `Float`, as in Nuke: beyond its range they are infinite, or zero, and invalid
        #expect(processingError(ImageProcessors.Resize(width: 1e300), image) != nil)
        #expect(processingError(ImageProcessors.Resize(height: 1e-300), image) != nil)
    }

    @Test func containerMetadataIsKept() throws {
        // Given a container with metadata
        let image = try TestImages.solid(width: 40, height: 40, color: .init(r: 9, g: 9, b: 9))
        let container = ImageContainer(image: image, type: .png, isPreview: true, userInfo: ["k": "v"])

        // When it is resized through the container API
        let output = try ImageProcessors.Resize(width: 10, unit: .pixels)
            .process(container, context: makeProcessingContext(image))

        // Then only the image changed
        #expect(output.image.width == 10)
        #expect(output.type == .png && output.isPreview)
        #expect(output.userInfo["k"] as? String == "v")
    }
}

@Suite struct ResamplerTests {
    @Test(arguments: [ResampleKernel.lanczos3, .catmullRom, .triangle])
    func everyKernelKeepsSolidColoursAndSymmetry(kernel: ResampleKernel) throws {
        // Given a solid image and a symmetric one
        let color = PlatformImage.RGBA(r: 40, g: 20, b: 10, a: 90)
        let solid = try TestImages.solid(width: 90, height: 31, color: color)
        let symmetric = try TestImages.make(width: 90, height: 31) { x, _ in
            let d = UInt8(min(x, 89 - x) * 5)
            return .init(r: d, g: d, b: d, a: 255)
        }
        let full = PixelRegion(x: 0, y: 0, width: 90, height: 31)

        for (width, height) in [(13, 5), (40, 14), (200, 60)] {
            // When they are resampled down and up
            let resampledSolid = Resampler.resample(solid, region: full, width: width, height: height, kernel: kernel)
            let resampled = Resampler.resample(symmetric, region: full, width: width, height: height, kernel: kernel)

            // Then the colour is exact and the symmetry kept
            #expect(Set(TestImages.pixels(resampledSolid)) == [color])
            for x in 0..<width {
                let left = try #require(resampled.pixel(x: x, y: 0))
                let right = try #require(resampled.pixel(x: width - 1 - x, y: 0))
                #expect(abs(Int(left.r) - Int(right.r)) <= 1)
            }
        }
    }

    @Test func boxGridIsCentred() {
        for (length, factor) in [(999, 4), (1000, 4), (1000, 7), (3000, 7), (5, 2), (1, 3)] {
            let grid = BoxGrid(lower: 10, upper: 10 + length, factor: factor)
            let first = grid.range(of: 0)
            let last = grid.range(of: grid.count - 1)
            #expect(first.count == last.count, "\(length) / \(factor)")
            #expect(first.lowerBound == 10 && last.upperBound == 10 + length)
            #expect((0..<grid.count).map { grid.range(of: $0).count }.reduce(0, +) == length)
        }
    }
}
