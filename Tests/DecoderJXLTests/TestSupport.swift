import DecoderJXL
import Foundation
import NukeCore
import Testing

/// Reads a committed fixture, made by `scripts/make-jxl-fixtures.py` with cjxl and djxl 0.7.0 (the script lists the
/// exact commands): `source.png` and `alpha.png` with their pixels in `source.rgba` and `alpha.rgba`, the JPEG XL
/// files cjxl made from them, and `X.djxl.rgba`, what djxl decodes from `X.jxl`.
func fixture(_ name: String) throws -> Data {
    let base = try #require(Bundle.module.resourceURL)
    return try Data(contentsOf: base.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// A fixture of straight RGBA pixels (`.rgba`) as a premultiplied image of the given size.
func straightRGBA(_ name: String, width: Int = 64, height: Int = 48) throws -> PlatformImage {
    var image = try PlatformImage(
        width: width, height: height, rgba: [UInt8](try fixture(name)), isPremultiplied: false)
    image.isOpaque = image.bytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }
    return image
}

/// A decoding context for `data`.
func context(_ data: Data) -> ImageDecodingContext {
    ImageDecodingContext(request: ImageRequest(url: URL(fileURLWithPath: "/tmp/image")), data: data)
}

/// The colours (straight RGBA) and durations of the three frames of `animated.png`, as the script writes them.
let animatedFrames: [(rgba: [UInt8], duration: TimeInterval)] = [
    ([230, 30, 30, 255], 0.1), ([30, 200, 60, 128], 0.2), ([40, 60, 220, 255], 0.3),
]

/// Whether every pixel of `image` is `straight` (straight RGBA), premultiplied as the decoder returns it.
func isSolid(_ image: PlatformImage, _ straight: [UInt8]) throws -> Bool {
    let expected = try PlatformImage(width: 1, height: 1, rgba: straight, isPremultiplied: false).bytes
    return image.withUnsafeBytes { bytes in
        stride(from: 0, to: bytes.count, by: 4).allSatisfy { offset in
            (0..<4).allSatisfy { bytes[offset + $0] == expected[$0] }
        }
    }
}

/// The frames of `animated.png` as an ``ImageAnimation`` made in memory, with a loop count of our choosing.
struct SolidAnimation: ImageAnimation {
    let frames: [PlatformImage]
    let loopCount: Int
    var canvasWidth: Int { 32 }
    var canvasHeight: Int { 32 }
    var frameCount: Int { frames.count }
    var frameDurations: [TimeInterval] { animatedFrames.map(\.duration) }

    init(loopCount: Int) throws {
        frames = try animatedFrames.map { frame in
            try PlatformImage(
                width: 32, height: 32, rgba: Array([[UInt8]](repeating: frame.rgba, count: 32 * 32).joined()),
                isPremultiplied: false)
        }
        self.loopCount = loopCount
    }

    func makeFrameIterator() throws -> any ImageAnimationFrameIterator {
        Iterator(frames: frames)
    }

    private struct Iterator: ImageAnimationFrameIterator {
        var frames: [PlatformImage]

        mutating func next() throws -> PlatformImage? {
            frames.isEmpty ? nil : frames.removeFirst()
        }
    }
}
