import Foundation
import NukeCore

/// Slow, exact reference filters in double precision, used only to score the quality of every
/// implementation's output (PSNR against the reference).
enum Reference {
    /// Direct separable Lanczos-3 resampling of the whole image, widened by the scale factor (no box
    /// pre-reduction), with weights renormalized at the edges: the filter the fast paths approximate.
    static func lanczos3(_ image: PlatformImage, width: Int, height: Int) -> [UInt8] {
        let source = image.bytes
        let horizontal = taps(input: image.width, output: width)
        let vertical = taps(input: image.height, output: height)
        var rows = [Double](repeating: 0, count: width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<width {
                for c in 0..<4 {
                    var sum = 0.0
                    for (index, weight) in horizontal[x] {
                        sum += weight * Double(source[(y * image.width + index) * 4 + c])
                    }
                    rows[(y * width + x) * 4 + c] = sum
                }
            }
        }
        var output = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var pixel = [0.0, 0.0, 0.0, 0.0]
                for (index, weight) in vertical[y] {
                    for c in 0..<4 { pixel[c] += weight * rows[(index * width + x) * 4 + c] }
                }
                let alpha = min(255, max(0, pixel[3]))
                for c in 0..<4 {
                    output[(y * width + x) * 4 + c] = UInt8(min(c == 3 ? 255 : alpha, max(0, pixel[c])).rounded())
                }
            }
        }
        return output
    }

    private static func taps(input: Int, output: Int) -> [[(Int, Double)]] {
        let scale = Double(input) / Double(output)
        let support = 3 * max(scale, 1)
        return (0..<output).map { i in
            let centre = (Double(i) + 0.5) * scale - 0.5
            let lo = max(0, Int((centre - support).rounded(.up)))
            let hi = min(input - 1, Int((centre + support).rounded(.down)))
            let weights = (lo...hi).map { j -> (Int, Double) in
                let x = abs(Double(j) - centre) / max(scale, 1)
                let px = Double.pi * x
                return (j, x < 1e-9 ? 1 : (x < 3 ? 3 * sin(px) * sin(px / 3) / (px * px) : 0))
            }
            let sum = weights.reduce(0) { $0 + $1.1 }
            return weights.map { ($0.0, $0.1 / sum) }
        }
    }

    /// An exact Gaussian blur with standard deviation `sigma` (kernel truncated at 4σ), edges extended.
    static func gaussian(_ image: PlatformImage, sigma: Double) -> [UInt8] {
        let radius = Int((4 * sigma).rounded(.up))
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }
        let (width, height) = (image.width, image.height)
        let source = image.bytes
        var rows = [Double](repeating: 0, count: source.count)
        for y in 0..<height {
            for x in 0..<width {
                for (k, weight) in kernel.enumerated() {
                    let sx = min(width - 1, max(0, x + k - radius))
                    for c in 0..<4 {
                        rows[(y * width + x) * 4 + c] += weight * Double(source[(y * width + sx) * 4 + c])
                    }
                }
            }
        }
        var output = [UInt8](repeating: 0, count: source.count)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<4 {
                    var value = 0.0
                    for (k, weight) in kernel.enumerated() {
                        let sy = min(height - 1, max(0, y + k - radius))
                        value += weight * rows[(sy * width + x) * 4 + c]
                    }
                    output[(y * width + x) * 4 + c] = UInt8(min(255, max(0, value)).rounded())
                }
            }
        }
        return output
    }
}
