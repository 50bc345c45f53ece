import Foundation
public import NukeCore

/// Pixel comparisons for codec tests.
public enum ImageComparison {
    /// The peak signal-to-noise ratio in decibels between two images of the same size over all four
    /// channels of the premultiplied pixels; `.infinity` when they are identical, `nil` when the sizes
    /// differ. Lossy codecs at good quality typically score above 30 dB.
    public static func psnr(_ lhs: PlatformImage, _ rhs: PlatformImage) -> Double? {
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return nil }
        var squaredError = 0.0
        lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                for y in 0..<lhs.height {
                    let rowA = y * lhs.bytesPerRow
                    let rowB = y * rhs.bytesPerRow
                    for index in 0..<(lhs.width * PlatformImage.bytesPerPixel) {
                        let difference = Double(a[rowA + index]) - Double(b[rowB + index])
                        squaredError += difference * difference
                    }
                }
            }
        }
        let count = Double(lhs.width * lhs.height * PlatformImage.bytesPerPixel)
        guard squaredError > 0, count > 0 else { return .infinity }
        let meanSquaredError = squaredError / count
        return 10 * log10(255 * 255 / meanSquaredError)
    }

    /// The largest difference of any channel of any pixel; `nil` when the sizes differ.
    public static func maximumDifference(_ lhs: PlatformImage, _ rhs: PlatformImage) -> Int? {
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return nil }
        var maximum = 0
        for y in 0..<lhs.height {
            for x in 0..<lhs.width {
                guard let a = lhs.pixel(x: x, y: y), let b = rhs.pixel(x: x, y: y) else { continue }
                maximum = max(
                    maximum, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)),
                    abs(Int(a.a) - Int(b.a)))
            }
        }
        return maximum
    }

    /// `true` when every channel of `pixel` is within `tolerance` of `expected`.
    public static func isClose(_ pixel: PlatformImage.RGBA?, to expected: PlatformImage.RGBA, tolerance: Int) -> Bool {
        guard let pixel else { return false }
        return abs(Int(pixel.r) - Int(expected.r)) <= tolerance && abs(Int(pixel.g) - Int(expected.g)) <= tolerance
            && abs(Int(pixel.b) - Int(expected.b)) <= tolerance && abs(Int(pixel.a) - Int(expected.a)) <= tolerance
    }
}
