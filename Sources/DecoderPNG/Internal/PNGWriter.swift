internal import CPNG
import Foundation
import NukeCore

/// Writes tightly packed 8-bit RGB or RGBA pixels to PNG data with `png_image_write_to_memory`.
///
/// The write keeps no libpng state after it returns (the simplified write API frees it itself), so no
/// handle outlives ``write(_:)``.
struct PNGWriter {
    let width: Int
    let height: Int
    let hasAlpha: Bool
    let isFast: Bool

    private var channels: Int { hasAlpha ? 4 : 3 }

    /// An upper bound of the encoded size (libpng's `PNG_IMAGE_PNG_SIZE_MAX` for a non-colormapped image).
    private var maximumSize: Int {
        let dataSize = (width * channels + 1) * height
        let compressed = dataSize + (dataSize + 7) / 8 + (dataSize + 63) / 64 + 11
        return 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / 8192) + compressed
    }

    func write(_ pixels: [UInt8]) -> Data? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | (hasAlpha ? PNG_FORMAT_FLAG_ALPHA : 0))
        if isFast {
            image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        }
        let capacity = maximumSize
        var output = [UInt8](repeating: 0, count: capacity)
        var size = capacity
        let rowStride = Int32(width * channels)
        let succeeded = output.withUnsafeMutableBytes { buffer in
            pixels.withUnsafeBytes { source in
                png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, source.baseAddress, rowStride, nil)
            }
        }
        png_image_free(&image)  // Normally already released by the write; a no-op then.
        guard succeeded != 0, size <= capacity else { return nil }
        return Data(output[0..<size])
    }

    /// `true` if every alpha byte is 255.
    static func isFullyOpaque(_ image: PlatformImage) -> Bool {
        image.withUnsafeBytes { bytes in
            for y in 0..<image.height {
                var offset = y * image.bytesPerRow + 3
                for _ in 0..<image.width {
                    if bytes[offset] != 255 { return false }
                    offset += 4
                }
            }
            return true
        }
    }

    /// The colour channels of an opaque image, tightly packed.
    static func rgb(of image: PlatformImage) -> [UInt8] {
        let count = image.width * image.height * 3
        return [UInt8](unsafeUninitializedCapacity: count) { output, initializedCount in
            image.withUnsafeBytes { bytes in
                var out = 0
                for y in 0..<image.height {
                    var offset = y * image.bytesPerRow
                    for _ in 0..<image.width {
                        output[out] = bytes[offset]
                        output[out + 1] = bytes[offset + 1]
                        output[out + 2] = bytes[offset + 2]
                        out += 3
                        offset += 4
                    }
                }
            }
            initializedCount = count
        }
    }
}
