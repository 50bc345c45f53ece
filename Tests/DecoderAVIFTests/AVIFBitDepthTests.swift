import CAVIF
import DecoderAVIF
import Foundation
import NukeCore
import Testing

/// Pillow's test files are all 8-bit; these files are made here with libavif's encoder (libaom) at 10 and 12
/// bits, lossless (4:4:4, identity matrix, quantizer 0), from a gradient whose samples use the full range.
@Suite("AVIF bit depths")
struct AVIFBitDepthTests {
    static let width = 32
    static let height = 8

    /// The gradient's sample at (x, y) for channel c, at `depth` bits.
    static func sample(x: Int, y: Int, channel: Int, depth: Int) -> Int {
        let maximum = (1 << depth) - 1
        switch channel {
        case 0: return x * maximum / (width - 1)
        case 1: return y * maximum / (height - 1)
        case 2: return (maximum - x * maximum / (width - 1))
        default: return x < width / 2 ? maximum : maximum / 2
        }
    }

    /// A lossless `depth`-bit AVIF of the gradient, with alpha, or `nil` if libavif can't encode.
    static func encode(depth: Int) -> Data? {
        guard let image = avifImageCreate(UInt32(width), UInt32(height), UInt32(depth), AVIF_PIXEL_FORMAT_YUV444)
        else { return nil }
        defer { avifImageDestroy(image) }
        image.pointee.matrixCoefficients = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
        image.pointee.yuvRange = AVIF_RANGE_FULL
        var samples = [UInt16](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<4 {
                    samples[(y * width + x) * 4 + channel] = UInt16(sample(x: x, y: y, channel: channel, depth: depth))
                }
            }
        }
        let converted = samples.withUnsafeMutableBytes { bytes -> Bool in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = UInt32(depth)
            rgb.pixels = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            rgb.rowBytes = UInt32(width * 8)
            return avifImageRGBToYUV(image, &rgb) == AVIF_RESULT_OK
        }
        guard converted, let encoder = avifEncoderCreate() else { return nil }
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.minQuantizer = 0
        encoder.pointee.maxQuantizer = 0
        encoder.pointee.minQuantizerAlpha = 0
        encoder.pointee.maxQuantizerAlpha = 0
        encoder.pointee.speed = 9
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        guard avifEncoderWrite(encoder, image, &output) == AVIF_RESULT_OK, let bytes = output.data else { return nil }
        return Data(bytes: bytes, count: output.size)
    }

    @Test("10- and 12-bit images decode to 8-bit premultiplied RGBA", arguments: [10, 12])
    func highBitDepth(_ depth: Int) throws {
        let data = try #require(Self.encode(depth: depth))

        let image = try ImageDecoders.AVIF().decode(data).image
        let animation = try ImageDecoders.AVIF.Animation(data: data)

        #expect(animation.bitDepth == depth)
        #expect(image.width == Self.width && image.height == Self.height && !image.isOpaque)
        let maximum = Double((1 << depth) - 1)
        var largest = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let pixel = try #require(image.pixel(x: x, y: y))
                let alpha = Double(Self.sample(x: x, y: y, channel: 3, depth: depth)) / maximum
                let expected =
                    (0..<3).map { channel in
                        Int(
                            (Double(Self.sample(x: x, y: y, channel: channel, depth: depth)) / maximum * alpha * 255)
                                .rounded())
                    } + [Int((alpha * 255).rounded())]
                let ours = [Int(pixel.r), Int(pixel.g), Int(pixel.b), Int(pixel.a)]
                largest = max(largest, zip(ours, expected).map { abs($0 - $1) }.max() ?? 0)
            }
        }
        #expect(largest <= 2, "largest difference \(largest) at \(depth) bits")
    }
}
