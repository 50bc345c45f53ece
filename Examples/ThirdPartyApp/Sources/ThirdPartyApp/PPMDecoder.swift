import Foundation
import NukeCore

/// Decodes binary PPM (`P6`, 8-bit RGB) images.
struct PPMDecoder: ImageDecoding {
    struct Error: Swift.Error, CustomStringConvertible {
        let reason: String
        var description: String { "PPM: \(reason)" }
    }

    /// The largest image accepted, checked from the header before any pixel buffer is allocated.
    static let maximumPixelCount = 50_000_000

    /// Returns a decoder for data that starts with the PPM signature, else `nil`: the registry factory.
    init?(context: ImageDecodingContext) {
        guard context.data.starts(with: [0x50, 0x36]) else { return nil }  // "P6"
    }

    func decode(_ data: Data) throws -> ImageContainer {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x50, 0x36]) else { throw Error(reason: "not a P6 file") }
        var index = 2
        var fields: [Int] = []
        while fields.count < 3 {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            let start = index
            var value = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]), value < 1_000_000 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            guard index > start else { throw Error(reason: "bad header at byte \(start)") }
            fields.append(value)
        }
        let (width, height) = (fields[0], fields[1])
        guard fields[2] == 255 else { throw Error(reason: "only 8-bit samples are supported") }
        guard width > 0, height > 0, width * height <= Self.maximumPixelCount else {
            throw Error(reason: "unsupported size \(width)×\(height)")
        }
        index += 1  // The single whitespace byte after the header.
        guard bytes.count - index >= width * height * 3 else { throw Error(reason: "truncated pixel data") }
        let pixels = bytes[index...]
        var image = try PlatformImage(width: width, height: height, isOpaque: true) { rgba in
            for pixel in 0..<(width * height) {
                let source = pixels.startIndex + pixel * 3
                rgba[pixel * 4] = pixels[source]
                rgba[pixel * 4 + 1] = pixels[source + 1]
                rgba[pixel * 4 + 2] = pixels[source + 2]
                rgba[pixel * 4 + 3] = 255
            }
        }
        image.isOpaque = true
        return ImageContainer(image: image, type: "public.ppm")
    }
}
