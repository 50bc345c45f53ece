/// An approximation of a Gaussian blur by three successive box blurs whose combined variance matches the
/// Gaussian's, O(1) per pixel whatever the radius.
///
/// The three passes of each axis run in one sweep of exact integer running sums, so the only rounding is
/// once after the horizontal sweep (to 16-bit fixed point) and once at the end. Edges are extended
/// (clamped), so borders don't darken. Works on premultiplied alpha, which keeps colour from bleeding out
/// of transparent pixels and keeps every output a valid premultiplied value.
struct BoxBlur: Sendable {
    /// One box: the window `[x - left, x + right]`.
    struct Box: Sendable {
        let left: Int
        let right: Int
        var width: Int { left + right + 1 }
    }

    /// The largest box width; keeps the sums of three passes of 8-bit values within 31 bits.
    static let maximumBoxWidth = 201
    /// Three boxes follow a Gaussian most closely (measured on step edges and against an exact blur) when
    /// their variance is slightly below the Gaussian's, since they have no tails.
    static let varianceRatio = 0.95
    /// The largest standard deviation the boxes can match (three boxes of the maximum width).
    static let maximumSigma = 100.0

    let boxes: [Box]
    /// The product of the box widths: the sum of the weights of the combined filter.
    let divisor: Int
    /// Fractional bits kept in the 16-bit values between the horizontal and vertical sweeps.
    let fractionBits: Int

    /// Creates the boxes for a Gaussian of standard deviation `sigma` (in pixels).
    ///
    /// Picks the three widths, each within a pixel or two of the ideal `√(4σ² + 1)`, whose combined
    /// variance `Σ (w² − 1) / 12` is closest to ``varianceRatio`` σ². Even widths come in pairs offset half a
    /// pixel in opposite directions, so the combined filter stays centred.
    ///
    /// - Precondition: `sigma` is positive; values above ``maximumSigma`` are treated as ``maximumSigma``.
    init(sigma: Double) {
        let sigma = min(sigma, Self.maximumSigma)
        let ideal = Int((4 * sigma * sigma + 1).squareRoot())
        let candidates = (max(1, ideal - 1)...max(1, ideal + 2)).map { min($0, Self.maximumBoxWidth) }
        var best: (widths: [Int], error: Double) = ([1, 1, 1], .infinity)
        for a in candidates {
            for b in candidates where b >= a {
                for c in candidates where c >= b {
                    let widths = [a, b, c]
                    guard widths.filter({ $0 % 2 == 0 }).count != 1 && widths.filter({ $0 % 2 == 0 }).count != 3
                    else { continue }
                    let variance = widths.reduce(0.0) { $0 + Double($1 * $1 - 1) / 12 }
                    let error = abs(variance - Self.varianceRatio * sigma * sigma)
                    if error < best.error - 1e-9 {
                        best = (widths, error)
                    }
                }
            }
        }
        var evenSeen = false
        boxes = best.widths.map { width in
            guard width % 2 == 0 else { return Box(left: width / 2, right: width / 2) }
            defer { evenSeen = true }
            return evenSeen ? Box(left: width / 2 - 1, right: width / 2) : Box(left: width / 2, right: width / 2 - 1)
        }
        divisor = boxes.reduce(1) { $0 * $1.width }
        var bits = 8
        while bits > 0 && divisor * (255 << bits) > Int(Int32.max) {
            bits -= 1
        }
        fractionBits = bits
    }

    /// Blurs premultiplied RGBA `source` rows of `width` × `height` pixels into tightly packed `destination`
    /// rows (which may be the same memory when `bytesPerRow == width * 4`).
    func apply(
        source: UnsafePointer<UInt8>, bytesPerRow: Int, width: Int, height: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        let intermediate = UnsafeMutablePointer<UInt16>.allocate(capacity: width * height * 4)
        defer { intermediate.deallocate() }
        let pointers = UncheckedSendable((source, intermediate, destination))
        // Bands of whole groups of four rows (the horizontal sweep blurs four rows at once), so that only the last
        // group of the image is short.
        let groupCount = (height + 3) / 4
        Parallel.forEachChunk(count: groupCount, work: width * height) { groups in
            let rows = (groups.lowerBound * 4)..<min(height, groups.upperBound * 4)
            self.blurRows(
                rows, source: pointers.value.0, bytesPerRow: bytesPerRow, width: width, into: pointers.value.1)
        }
        let stripCount = (width + Self.stripWidth - 1) / Self.stripWidth
        Parallel.forEachChunk(count: stripCount, work: width * height) { strips in
            for strip in strips {
                let columns = (strip * Self.stripWidth)..<min(width, (strip + 1) * Self.stripWidth)
                self.blurColumns(
                    columns, source: pointers.value.1, width: width, height: height, into: pointers.value.2)
            }
        }
    }

    /// The number of columns the vertical sweep processes together; keeps its state in the caches.
    static let stripWidth = 128
}
