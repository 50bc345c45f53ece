import DecoderPNG
import Foundation
import NukeCore
import Testing

/// Reads a committed fixture (see `scripts/make-codec-fixtures.py`).
func fixture(_ name: String) throws -> Data {
    let base = try #require(Bundle.module.resourceURL)
    return try Data(contentsOf: base.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// A PNG file assembled chunk by chunk, with correct CRCs, for hostile headers.
enum PNGBytes {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        return bigEndian(UInt32(payload.count)) + body + bigEndian(crc32(body))
    }

    static func header(width: UInt32, height: UInt32, depth: UInt8 = 8, colorType: UInt8 = 6) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [depth, colorType, 0, 0, 0])
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// An RGBA test image with an alpha ramp and colour gradients (straight alpha in, premultiplied stored).
func gradientImage(width: Int, height: Int, opaque: Bool) throws -> PlatformImage {
    var rgba: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            let alpha = opaque ? 255 : (x * 255 / max(1, width - 1))
            rgba += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 90, UInt8(alpha)]
        }
    }
    var image = try PlatformImage(width: width, height: height, rgba: rgba, isPremultiplied: false)
    image.isOpaque = opaque
    return image
}
