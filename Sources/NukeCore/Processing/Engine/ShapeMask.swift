import Foundation

/// Cuts a premultiplied RGBA image to a rounded rectangle (a circle when the radius is half of a square's
/// side) with anti-aliased edges, and optionally draws a border along the inside of the edge.
///
/// Coverage comes from the signed distance of each pixel centre to the shape's edge, so the edges are
/// smooth and symmetric; pixels outside become fully transparent. Pixels well inside the shape are never
/// visited.
struct ShapeMask {
    let width: Int
    let height: Int
    /// The corner radius in pixels, at most half the shorter side.
    let radius: Double
    /// The border width in pixels (zero for none) and its premultiplied colour.
    let borderWidth: Double
    let borderColor: SIMD4<Float>

    init(width: Int, height: Int, radius: Double, borderWidth: Double, borderColor: PlatformImage.RGBA) {
        self.width = width
        self.height = height
        self.radius = min(max(radius, 0), Double(min(width, height)) / 2)
        self.borderWidth = min(borderWidth, Double(min(width, height)) / 2)
        self.borderColor = SIMD4(
            Float(borderColor.r), Float(borderColor.g), Float(borderColor.b), Float(borderColor.a))
    }

    /// The signed distance from the point (relative to the centre) to the edge: negative inside.
    private func distance(_ x: Double, _ y: Double) -> Double {
        let qx = abs(x) - (Double(width) / 2 - radius)
        let qy = abs(y) - (Double(height) / 2 - radius)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - radius
    }

    /// Applies the mask to tightly packed pixels in place.
    func apply(to pixels: UnsafeMutablePointer<UInt8>) {
        // Pixels whose centre is deeper inside than this are unchanged.
        let margin = borderWidth + 1
        for row in 0..<height {
            let y = Double(row) + 0.5 - Double(height) / 2
            let safe = safeHalfWidth(y: y, margin: margin)
            let centre = Double(width) / 2
            // Columns whose centres are within `safe` of the centre line are inside.
            let first = max(0, Int((centre - safe - 0.5).rounded(.up)))
            let last = min(width - 1, Int((centre + safe - 0.5).rounded(.down)))
            let rowPixels = pixels + row * width * 4
            if first > last {
                shade(rowPixels, columns: 0..<width, y: y)
            } else {
                shade(rowPixels, columns: 0..<first, y: y)
                shade(rowPixels, columns: (last + 1)..<width, y: y)
            }
        }
    }

    /// The half-width of the row at `y` inside which every point is at least `margin` inside the shape.
    private func safeHalfWidth(y: Double, margin: Double) -> Double {
        let halfWidth = Double(width) / 2 - margin
        let halfHeight = Double(height) / 2 - margin
        let innerRadius = max(radius - margin, 0)
        guard halfWidth > 0, halfHeight > 0, abs(y) <= halfHeight else { return -1 }
        let dy = abs(y) - (halfHeight - innerRadius)
        guard dy > 0 else { return halfWidth }
        return halfWidth - innerRadius + (innerRadius * innerRadius - dy * dy).squareRoot()
    }

    private func shade(_ row: UnsafeMutablePointer<UInt8>, columns: Range<Int>, y: Double) {
        for column in columns {
            let x = Double(column) + 0.5 - Double(width) / 2
            let d = distance(x, y)
            let coverage = Float(min(max(0.5 - d, 0), 1))
            let inner = borderWidth > 0 ? Float(min(max(0.5 - (d + borderWidth), 0), 1)) : coverage
            guard coverage < 1 || inner < 1 else { continue }
            let pointer = row + column * 4
            let pixel = SIMD4<Float>(
                Float(pointer[0]), Float(pointer[1]), Float(pointer[2]), Float(pointer[3]))
            let blended = pixel * inner + borderColor * (coverage - inner)
            Kernels.store(blended, to: pointer)
        }
    }
}
