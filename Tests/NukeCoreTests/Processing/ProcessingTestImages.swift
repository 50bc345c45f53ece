import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

/// Deterministic inputs for the processor tests.
enum TestImages {
    /// A `width` × `height` image whose pixels are `pixel(x, y)` (premultiplied).
    static func make(
        width: Int, height: Int, scale: Double = 1, _ pixel: (Int, Int) -> PlatformImage.RGBA
    ) throws -> PlatformImage {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let value = pixel(x, y)
                bytes += [value.r, value.g, value.b, value.a]
            }
        }
        return try PlatformImage(width: width, height: height, rgba: bytes, scale: scale)
    }

    /// A solid image.
    static func solid(
        width: Int, height: Int, color: PlatformImage.RGBA, scale: Double = 1
    ) throws -> PlatformImage {
        try make(width: width, height: height, scale: scale) { _, _ in color }
    }

    /// Opaque black and white squares of `cell` pixels.
    static func checkerboard(width: Int, height: Int, cell: Int) throws -> PlatformImage {
        try make(width: width, height: height) { x, y in
            let white = (x / cell + y / cell) % 2 == 0
            let v: UInt8 = white ? 255 : 0
            return .init(r: v, g: v, b: v, a: 255)
        }
    }

    /// Varied opaque content: gradients plus a hash-based texture.
    static func texture(width: Int, height: Int) throws -> PlatformImage {
        try make(width: width, height: height) { x, y in
            let hash = UInt8(truncatingIfNeeded: (x &* 73_856_093) ^ (y &* 19_349_663))
            return .init(
                r: UInt8(x * 255 / max(1, width - 1)), g: UInt8(y * 255 / max(1, height - 1)), b: hash, a: 255)
        }
    }

    /// All pixels of an image, row by row.
    static func pixels(_ image: PlatformImage) -> [PlatformImage.RGBA] {
        var result: [PlatformImage.RGBA] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                if let pixel = image.pixel(x: x, y: y) { result.append(pixel) }
            }
        }
        return result
    }
}

/// A context for calling `process(_:context:)` directly.
func makeProcessingContext(_ image: PlatformImage) -> ImageProcessingContext {
    let request = ImageRequest(url: Fixtures.url("image"))
    let response = ImageResponse(container: ImageContainer(image: image), request: request)
    return ImageProcessingContext(request: request, response: response, isCompleted: true)
}

/// The error thrown by `processor.process(_:context:)` for `image`, as an `ImageProcessingError`.
func processingError(_ processor: any ImageProcessing, _ image: PlatformImage) -> ImageProcessingError? {
    do {
        _ = try processor.process(ImageContainer(image: image), context: makeProcessingContext(image))
        return nil
    } catch {
        return error as? ImageProcessingError
    }
}
