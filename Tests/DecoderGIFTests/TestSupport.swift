import DecoderGIF
import Foundation
import NukeCore
import Testing

/// Reads a committed fixture: `pillow/NAME.gif` are the GIFs of Pillow 10.4.0's test suite (from its source
/// distribution); `pillow-expected.json` is what Pillow decodes from them (`scripts/make-gif-expectations.py`).
func fixture(_ name: String) throws -> Data {
    let base = try #require(Bundle.module.resourceURL)
    return try Data(contentsOf: base.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// A Pillow test image.
func pillow(_ name: String) throws -> Data {
    try fixture("pillow/\(name)")
}

/// A decoding context for `data`.
func context(_ data: Data, thumbnail: ImageRequest.ThumbnailOptions? = nil) -> ImageDecodingContext {
    var request = ImageRequest(url: URL(fileURLWithPath: "/tmp/image"))
    request.thumbnail = thumbnail
    return ImageDecodingContext(request: request, data: data)
}

/// FNV-1a (64-bit) of an image's RGBA bytes, as `scripts/make-gif-expectations.py` computes it.
func fnv1a(_ image: PlatformImage) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    image.withUnsafeBytes { bytes in
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

/// GIF files assembled by hand, for hostile headers and frame layouts.
enum GIFBytes {
    static func littleEndian(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    /// A GIF89a header and logical screen of `width`×`height` with a two-colour global table (red, blue).
    static func header(width: Int, height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + littleEndian(width) + littleEndian(height) + [0x80, 0, 0] + [255, 0, 0, 0, 0, 255]
    }

    /// A 1×1 frame at (`left`, `top`) drawing palette index `index` (0 or 1), with a graphic control
    /// extension giving its delay (hundredths) and disposal.
    static func pixelFrame(left: Int, top: Int, index: UInt8 = 0, delay: Int = 10, disposal: UInt8 = 1) -> [UInt8] {
        // LZW with a minimum code size of 2: clear (4), the index, end of information (5), as 3-bit codes.
        let codes = UInt16(4) | UInt16(index) << 3 | UInt16(5) << 6
        let control: [UInt8] = [0x21, 0xF9, 4, disposal << 2] + littleEndian(delay) + [0, 0]
        return control + [0x2C] + littleEndian(left) + littleEndian(top) + littleEndian(1) + littleEndian(1) + [0]
            + [2, 2, UInt8(codes & 0xFF), UInt8(codes >> 8), 0]
    }

    /// The NETSCAPE2.0 application extension with a repeat count.
    static func loop(_ count: Int) -> [UInt8] {
        [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + littleEndian(count) + [0]
    }

    static func file(width: Int, height: Int, _ records: [UInt8]) -> Data {
        Data(header(width: width, height: height) + records + [0x3B])
    }
}
