import Foundation
import Testing

@testable import NukeCore

@Suite struct ProcessorRobustnessTests {
    static let processors: [any ImageProcessing] = [
        ImageProcessors.Resize(size: CGSize(width: 1, height: 1), unit: .pixels),
        ImageProcessors.Resize(size: CGSize(width: 3, height: 300), unit: .pixels, crop: true),
        ImageProcessors.Resize(size: CGSize(width: 300, height: 3), unit: .pixels, crop: true, upscale: true),
        ImageProcessors.Resize(size: CGSize(width: 0.4, height: 0.4), unit: .pixels, contentMode: .aspectFit),
        ImageProcessors.Resize(size: CGSize(width: 17, height: 5), contentMode: .aspectFit, upscale: true),
        ImageProcessors.Resize(width: 2, unit: .pixels, upscale: true),
        ImageProcessors.Resize(height: 40, unit: .pixels, upscale: true),
        ImageProcessors.Resize(width: -1),
        ImageProcessors.Resize(size: CGSize(width: CGFloat.nan, height: 4)),
        ImageProcessors.Crop(rect: CGRect(x: -5, y: -5, width: 6, height: 6)),
        ImageProcessors.Crop(rect: CGRect(x: 1e300, y: 0, width: 1, height: 1)),
        ImageProcessors.Circle(),
        ImageProcessors.Circle(border: .init(color: .init(r: 255, g: 0, b: 0), width: 1e9)),
        ImageProcessors.RoundedCorners(radius: 1e300),
        ImageProcessors.RoundedCorners(radius: 0.3, unit: .pixels, border: .init(color: .init(r: 9, g: 9, b: 9))),
        ImageProcessors.GaussianBlur(radius: 1),
        ImageProcessors.GaussianBlur(radius: 500),
        ImageProcessors.Grayscale(),
    ]

    @Test(arguments: [(1, 1), (1, 7), (7, 1), (3, 2), (64, 1), (5, 64)])
    func oddImagesNeverCrashAndStayValid(width: Int, height: Int) throws {
        // Given a small, oddly shaped, partly transparent image
        let image = try TestImages.make(width: width, height: height, scale: 2) { x, y in
            let a = UInt8((x * 97 + y * 31) % 256)
            return .init(r: a / 2, g: a, b: a / 3, a: a)
        }

        for processor in Self.processors {
            // When any processor runs on it
            let container = ImageContainer(image: image)
            let output: PlatformImage
            do {
                output = try processor.process(container, context: makeProcessingContext(image)).image
            } catch {
                // Then it either fails with a typed error…
                #expect(error is ImageProcessingError, "\(processor): \(error)")
                continue
            }
            // …or produces a non-empty image of valid premultiplied pixels
            #expect(!output.isEmpty, "\(processor)")
            #expect(output.scale == image.scale)
            for pixel in TestImages.pixels(output) {
                #expect(pixel.r <= pixel.a && pixel.g <= pixel.a && pixel.b <= pixel.a, "\(processor): \(pixel)")
            }
        }
    }
}
