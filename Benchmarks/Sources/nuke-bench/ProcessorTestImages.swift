import Foundation
import NukeCore

/// Deterministic synthetic inputs.
enum ProcessorTestImages {
    /// An opaque "photo": smooth gradients, a zone plate (fine, aliasing-prone detail that grows toward the
    /// edges) and pseudo-random noise, so that filters do real work and quality differences show.
    static func photo(width: Int, height: Int) -> PlatformImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var seed: UInt32 = 0x1234_5678
        let cx = Double(width) / 2
        let cy = Double(height) / 2
        let k = Double.pi / Double(max(width, height)) * 0.9
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = Double(seed >> 24) / 255 - 0.5
                let dx = Double(x) - cx
                let dy = Double(y) - cy
                let zone = (1 + cos(k * (dx * dx + dy * dy) / 4)) / 2
                let offset = (y * width + x) * 4
                pixels[offset] = clamp(255 * Double(x) / Double(width) * 0.6 + 90 * zone + 12 * noise)
                pixels[offset + 1] = clamp(255 * Double(y) / Double(height) * 0.6 + 90 * zone + 12 * noise)
                pixels[offset + 2] = clamp(200 * zone + 40 + 12 * noise)
            }
        }
        do {
            var image = try PlatformImage(width: width, height: height, rgba: pixels)
            image.isOpaque = true
            return image
        } catch {
            fatalError("nuke-bench: cannot build the test image: \(error)")
        }
    }

    private static func clamp(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}
