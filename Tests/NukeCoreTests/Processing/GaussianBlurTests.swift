import Foundation
import Testing

@testable import NukeCore

@Suite struct GaussianBlurTests {
    @Test(arguments: [1, 2, 3, 8, 25])
    func constantImageStaysConstant(radius: Int) throws {
        for color in [PlatformImage.RGBA(r: 200, g: 100, b: 3, a: 255), .init(r: 60, g: 30, b: 10, a: 100)] {
            // Given a solid image
            let image = try TestImages.solid(width: 50, height: 30, color: color)

            // When it is blurred
            let output = try #require(ImageProcessors.GaussianBlur(radius: radius).process(image))

            // Then nothing changes, edges included
            #expect(Set(TestImages.pixels(output)) == [color])
        }
    }

    @Test(arguments: [1, 2, 3, 5, 8])
    func impulseResponseIsSymmetric(radius: Int) throws {
        // Given a small bright square in the middle of a transparent image
        let size = 8 * radius + 9
        let centre = size / 2
        let image = try TestImages.make(width: size, height: size) { x, y in
            abs(x - centre) <= 1 && abs(y - centre) <= 1
                ? .init(r: 255, g: 255, b: 255, a: 255) : .init(r: 0, g: 0, b: 0, a: 0)
        }

        // When it is blurred
        let output = try #require(ImageProcessors.GaussianBlur(radius: radius).process(image))

        // Then the response is mirror-symmetric in both axes, nearly transpose-symmetric, peaks in the centre
        // and spreads beyond the centre pixel
        for y in 0..<size {
            for x in 0..<size {
                let a = try #require(output.pixel(x: x, y: y))
                #expect(a == output.pixel(x: size - 1 - x, y: y))
                #expect(a == output.pixel(x: x, y: size - 1 - y))
                let transposed = try #require(output.pixel(x: y, y: x))
                #expect(abs(Int(a.a) - Int(transposed.a)) <= 1)
                #expect(a.r <= a.a)
            }
        }
        let peak = try #require(output.pixel(x: centre, y: centre))
        #expect(peak.a < 255 && peak.a > 0)
        #expect(TestImages.pixels(output).allSatisfy { $0.a <= peak.a })
        #expect(output.pixel(x: centre + radius, y: centre)!.a > 0)
    }

    @Test func blurSpreadsMatchTheRadius() throws {
        // Given a vertical edge: black on the left, white on the right
        let image = try TestImages.make(width: 100, height: 4) { x, _ in
            x < 50 ? .init(r: 0, g: 0, b: 0) : .init(r: 255, g: 255, b: 255)
        }

        // When it is blurred with σ = 5
        let output = try #require(ImageProcessors.GaussianBlur(radius: 5).process(image))

        // Then the edge (at x = 50) follows a Gaussian's step response, 255 Φ((x + 0.5 − 50) / σ)
        let reds = (0..<100).map { Int(output.pixel(x: $0, y: 1)!.r) }
        for x in 35..<65 {
            let expected = 255 * (1 + erf((Double(x) + 0.5 - 50) / (5 * 2.0.squareRoot()))) / 2
            #expect(abs(Double(reds[x]) - expected) <= 3, "x = \(x): \(reds[x]) vs \(expected)")
        }
        #expect(reds[0] == 0 && reds[99] == 255)
    }

    @Test func largeImageSplitAcrossCoresStaysExact() throws {
        let color = PlatformImage.RGBA(r: 3, g: 250, b: 128, a: 255)
        let image = try TestImages.solid(width: 700, height: 500, color: color)
        let output = try #require(ImageProcessors.GaussianBlur(radius: 12).process(image))
        #expect(Set(TestImages.pixels(output)) == [color])
        #expect(output.isOpaque == image.isOpaque)
    }

    @Test func tinyImagesAndHugeRadiiWork() throws {
        for (width, height) in [(1, 1), (1, 9), (9, 1), (2, 3)] {
            let image = try TestImages.texture(width: width, height: height)
            for radius in [1, 8, 1000, Int.max] {
                let output = try #require(ImageProcessors.GaussianBlur(radius: radius).process(image))
                #expect(output.width == width && output.height == height)
            }
        }
    }

    @Test(arguments: [1, 3, 8])
    func sweepsDoNotDependOnHowRowsAndColumnsAreGrouped(radius: Int) throws {
        // Given an irregular texture whose height is not a multiple of the four rows the horizontal sweep blurs
        // together, and whose width is not a multiple of the four pixels the vertical sweep handles per statement
        let (width, height) = (23, 11)
        let image = try TestImages.texture(width: width, height: height)
        let blur = BoxBlur(sigma: Double(radius))
        let count = width * height * 4

        // When the rows are swept all at once and one at a time, and the columns likewise
        let together = [UInt16](unsafeUninitializedCapacity: count) { rows, initialized in
            image.withUnsafeBytes { source in
                let pixels = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                blur.blurRows(
                    0..<height, source: pixels, bytesPerRow: image.bytesPerRow, width: width, into: rows.baseAddress!)
            }
            initialized = count
        }
        let alone = [UInt16](unsafeUninitializedCapacity: count) { rows, initialized in
            image.withUnsafeBytes { source in
                let pixels = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for row in 0..<height {
                    blur.blurRows(
                        row..<(row + 1), source: pixels, bytesPerRow: image.bytesPerRow, width: width,
                        into: rows.baseAddress!)
                }
            }
            initialized = count
        }
        let columns = together.withUnsafeBufferPointer { rows in
            [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                blur.blurColumns(
                    0..<width, source: rows.baseAddress!, width: width, height: height, into: output.baseAddress!)
                initialized = count
            }
        }
        let columnsAlone = together.withUnsafeBufferPointer { rows in
            [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                for column in 0..<width {
                    blur.blurColumns(
                        column..<(column + 1), source: rows.baseAddress!, width: width, height: height,
                        into: output.baseAddress!)
                }
                initialized = count
            }
        }

        // Then the results are the same
        #expect(together == alone)
        #expect(columns == columnsAlone)
        #expect(Set(columns).count > 1)
    }

    @Test func zeroRadiusReturnsTheImageAndEmptyImagesThrow() throws {
        let image = try TestImages.texture(width: 5, height: 5)
        #expect(ImageProcessors.GaussianBlur(radius: 0).process(image) == image)
        #expect(ImageProcessors.GaussianBlur(radius: -3).process(image) == image)
        #expect(processingError(ImageProcessors.GaussianBlur(), PlatformImage()) == .emptyImage)
    }
}
