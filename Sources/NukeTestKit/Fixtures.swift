public import Foundation
public import NukeCore

/// Ready-made inputs for tests.
public enum Fixtures {
    /// The URL `https://example.com/<name>`; `name` may contain `/` to form a path. If the result is not a
    /// valid URL, `name` is appended as a percent-encoded path component instead.
    public static func url(_ name: String) -> URL {
        let base = URL(string: "https://example.com")!
        return URL(string: "https://example.com/\(name)") ?? base.appendingPathComponent(name)
    }

    /// An image of `width` × `height` pixels that are all `color` (premultiplied RGBA, stored verbatim).
    /// `PlatformImage.isOpaque` is `true` when `color.a` is 255.
    ///
    /// - Precondition: The size is valid for `PlatformImage` (non-negative, within its pixel limit).
    public static func solidImage(width: Int, height: Int, color: PlatformImage.RGBA) -> PlatformImage {
        precondition(width >= 0 && height >= 0, "Fixtures.solidImage: negative size \(width)×\(height)")
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * PlatformImage.bytesPerPixel)
        for _ in 0..<(width * height) {
            rgba.append(contentsOf: [color.r, color.g, color.b, color.a])
        }
        do {
            var image = try PlatformImage(width: width, height: height, rgba: rgba)
            image.isOpaque = color.a == 255
            return image
        } catch {
            preconditionFailure("Fixtures.solidImage: invalid size \(width)×\(height): \(error)")
        }
    }

    /// An opaque photo-like image of `width` × `height` pixels: smooth gradients with some texture, for codec and
    /// resampling tests where a flat colour would hide errors.
    ///
    /// - Precondition: The size is valid for `PlatformImage`.
    public static func photoLikeImage(width: Int, height: Int) -> PlatformImage {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                let wave = (sin(Double(x) / 9) + cos(Double(y) / 7)) * 30
                rgba[offset] = UInt8(clamping: Int(Double(x * 200 / max(1, width)) + wave + 20))
                rgba[offset + 1] = UInt8(clamping: Int(Double(y * 200 / max(1, height)) - wave + 30))
                rgba[offset + 2] = UInt8(clamping: Int(120 + wave))
            }
        }
        guard var image = try? PlatformImage(width: width, height: height, rgba: rgba) else {
            preconditionFailure("photoLikeImage: \(width)×\(height) is not a valid image size")
        }
        image.isOpaque = true
        return image
    }
}
