import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// Reads a committed fixture (see `scripts/make-codec-fixtures.py`).
func fixture(_ name: String) throws -> Data {
    let base = try #require(Bundle.module.resourceURL)
    return try Data(contentsOf: base.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// `lossless-alpha.webp` and `lossy-alpha.webp` encode this 32×24 image: colour (x·8, y·10, 128), alpha
/// 255 in the first 8 columns and x·8 after.
func alphaSource() throws -> PlatformImage {
    var rgba: [UInt8] = []
    for y in 0..<24 {
        for x in 0..<32 {
            rgba += [UInt8(x * 8), UInt8(y * 10), 128, x < 8 ? 255 : UInt8(x * 8)]
        }
    }
    return try PlatformImage(width: 32, height: 24, rgba: rgba, isPremultiplied: false)
}

/// `lossy.webp` shows a 64×48 image split into quadrants of these colours (TL, TR, BL, BR).
let quadrantColors: [PlatformImage.RGBA] = [
    .init(r: 230, g: 30, b: 30), .init(r: 30, g: 200, b: 60), .init(r: 40, g: 60, b: 220), .init(r: 240, g: 230, b: 40),
]

/// A decoding context for `data` with an optional thumbnail.
func context(_ data: Data, thumbnail: ImageRequest.ThumbnailOptions? = nil) -> ImageDecodingContext {
    var request = ImageRequest(url: URL(fileURLWithPath: "/tmp/image"))
    request.thumbnail = thumbnail
    return ImageDecodingContext(request: request, data: data)
}

/// WebP files assembled by hand, for hostile headers.
enum WebPBytes {
    static func littleEndian(_ value: UInt32, count: Int = 4) -> [UInt8] {
        (0..<count).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) }
    }

    static func riff(_ chunks: [UInt8]) -> Data {
        Data(Array("RIFF".utf8) + littleEndian(UInt32(4 + chunks.count)) + Array("WEBP".utf8) + chunks)
    }

    static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + littleEndian(UInt32(payload.count)) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    /// A lossless bitstream header declaring `width`×`height` (at most 16384 a side), with junk after it.
    static func lossless(width: Int, height: Int) -> Data {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14
        return riff(chunk("VP8L", [0x2F] + littleEndian(bits) + [UInt8](repeating: 0x55, count: 32)))
    }

    /// An extended-format header declaring an animated canvas of `width`×`height` (at most 2²⁴ a side).
    static func animatedCanvas(width: Int, height: Int) -> Data {
        let payload =
            [0x02, 0, 0, 0] + littleEndian(UInt32(width - 1), count: 3) + littleEndian(UInt32(height - 1), count: 3)
        return riff(chunk("VP8X", payload) + chunk("ANIM", [0, 0, 0, 0, 0, 0]))
    }
}
