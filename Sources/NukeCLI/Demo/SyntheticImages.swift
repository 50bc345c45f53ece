import Foundation
import Nuke

/// Deterministic pictures for the demo's image set: photo-like landscapes (gradient sky, sun, two ranges of
/// hills, sensor noise) that compress like photos, and flat illustrations with transparency that compress
/// like UI art.
enum SyntheticImages {
    /// A small, fast, seedable generator (xorshift64*).
    struct Random {
        private var state: UInt64

        init(seed: Int) {
            state = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: seed &* 0x2545_F491)
            if state == 0 { state = 1 }
        }

        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }

        /// A value in 0..<1.
        mutating func unit() -> Double {
            Double(next() >> 11) / Double(1 << 53)
        }

        /// A value in `range`.
        mutating func int(_ range: Range<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.count))
        }
    }

    /// A landscape `width`×`height`, opaque.
    static func photo(width: Int, height: Int, seed: Int) throws -> PlatformImage {
        var random = Random(seed: seed)
        let hue = random.unit()
        let skyTop = color(hue: hue, saturation: 0.55, value: 0.95)
        let skyBottom = color(hue: hue + 0.08, saturation: 0.25, value: 1)
        let nearHill = rgb(color(hue: hue + 0.35, saturation: 0.6, value: 0.45))
        let farHill = rgb(color(hue: hue + 0.4, saturation: 0.35, value: 0.7))
        let sunX = Int(Double(width) * (0.2 + 0.6 * random.unit()))
        let sunY = Int(Double(height) * (0.15 + 0.2 * random.unit()))
        let sunRadius = Int(Double(min(width, height)) * (0.05 + 0.05 * random.unit()))
        let phases = (random.unit() * 6.28, random.unit() * 6.28, 2 + random.unit() * 5, 4 + random.unit() * 7)
        // One horizon per column for each range of hills.
        let far = (0..<width).map { x -> Int in
            let u = Double(x) / Double(width)
            return Int(Double(height) * (0.55 + 0.08 * sin(u * phases.2 + phases.0) + 0.03 * sin(u * 17 + phases.1)))
        }
        let near = (0..<width).map { x -> Int in
            let u = Double(x) / Double(width)
            return Int(Double(height) * (0.72 + 0.07 * sin(u * phases.3 + phases.1) + 0.02 * sin(u * 31 + phases.0)))
        }
        let sky = (0..<height).map { y in rgb(mix(skyTop, skyBottom, Double(y) / Double(height) / 0.7)) }
        return try PlatformImage(width: width, height: height, isOpaque: true) { buffer in
            let pixels = buffer.bindMemory(to: UInt8.self)
            var noise = random.next() | 1
            for y in 0..<height {
                let shade = 255 - y * 96 / height  // darker towards the bottom
                for x in 0..<width {
                    var color: (Int, Int, Int)
                    if y > near[x] {
                        color = (nearHill.0 * shade >> 8, nearHill.1 * shade >> 8, nearHill.2 * shade >> 8)
                    } else if y > far[x] {
                        color = farHill
                    } else {
                        let dx = x - sunX
                        let dy = y - sunY
                        color = dx * dx + dy * dy < sunRadius * sunRadius ? (255, 247, 217) : sky[y]
                    }
                    noise ^= noise << 13
                    noise ^= noise >> 7
                    noise ^= noise << 17
                    let grain = Int(noise & 31) - 16
                    let index = (y * width + x) * 4
                    pixels[index] = UInt8(clamping: color.0 + grain)
                    pixels[index + 1] = UInt8(clamping: color.1 + grain)
                    pixels[index + 2] = UInt8(clamping: color.2 + grain)
                    pixels[index + 3] = 255
                }
            }
        }
    }

    /// A flat illustration `size`×`size` with transparent background: overlapping translucent discs.
    static func illustration(size: Int, seed: Int) throws -> PlatformImage {
        var random = Random(seed: seed)
        let discs = (0..<6).map { _ in
            (
                x: Double(size) * random.unit(), y: Double(size) * random.unit(),
                radius: Double(size) * (0.12 + 0.2 * random.unit()),
                color: color(hue: random.unit(), saturation: 0.7, value: 0.9), alpha: 0.6 + 0.4 * random.unit()
            )
        }
        return try PlatformImage(width: size, height: size, isPremultiplied: false) { buffer in
            let pixels = buffer.bindMemory(to: UInt8.self)
            for y in 0..<size {
                for x in 0..<size {
                    var rgb = (0.0, 0.0, 0.0)
                    var alpha = 0.0
                    for disc in discs {
                        let dx = Double(x) - disc.x
                        let dy = Double(y) - disc.y
                        guard dx * dx + dy * dy < disc.radius * disc.radius else { continue }
                        // "Source over" in straight alpha.
                        let a = disc.alpha
                        let out = a + alpha * (1 - a)
                        rgb.0 = (disc.color.0 * a + rgb.0 * alpha * (1 - a)) / out
                        rgb.1 = (disc.color.1 * a + rgb.1 * alpha * (1 - a)) / out
                        rgb.2 = (disc.color.2 * a + rgb.2 * alpha * (1 - a)) / out
                        alpha = out
                    }
                    let index = (y * size + x) * 4
                    pixels[index] = channel(rgb.0)
                    pixels[index + 1] = channel(rgb.1)
                    pixels[index + 2] = channel(rgb.2)
                    pixels[index + 3] = channel(alpha)
                }
            }
        }
    }

    /// An HSV colour as RGB in 0…1 (`hue` wraps).
    static func color(hue: Double, saturation: Double, value: Double) -> (Double, Double, Double) {
        let h = (hue - hue.rounded(.down)) * 6
        let sector = Int(h) % 6
        let f = h - Double(Int(h))
        let p = value * (1 - saturation)
        let q = value * (1 - saturation * f)
        let t = value * (1 - saturation * (1 - f))
        switch sector {
        case 0: return (value, t, p)
        case 1: return (q, value, p)
        case 2: return (p, value, t)
        case 3: return (p, q, value)
        case 4: return (t, p, value)
        default: return (value, p, q)
        }
    }

    private static func mix(
        _ a: (Double, Double, Double), _ b: (Double, Double, Double), _ t: Double
    ) -> (Double, Double, Double) {
        let t = min(max(t, 0), 1)
        return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    private static func rgb(_ color: (Double, Double, Double)) -> (Int, Int, Int) {
        (Int(channel(color.0)), Int(channel(color.1)), Int(channel(color.2)))
    }

    private static func channel(_ value: Double) -> UInt8 {
        UInt8(min(max(value * 255, 0), 255).rounded())
    }
}
