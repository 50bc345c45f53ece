/// The per-pixel helpers of the shape and colour processors. All pointers address premultiplied RGBA values; the
/// callers guarantee the counts. (The loops of resize and blur are in C, in `CNukeKernels`.)
enum Kernels {
    /// Rounds a premultiplied float pixel to 8 bits, clamping alpha to 0...255 and colour to 0...alpha so
    /// that filter overshoot never yields an invalid premultiplied value. When alpha overshoots, the whole
    /// pixel is scaled down first, which keeps its (unpremultiplied) colour.
    @inline(__always)
    static func store(_ pixel: SIMD4<Float>, to destination: UnsafeMutablePointer<UInt8>) {
        var pixel = pixel
        if pixel.w > 255.5 {
            pixel *= 255 / pixel.w
        }
        let alpha = min(max(pixel.w, 0), 255)
        let clamped = pixel.clamped(lowerBound: .zero, upperBound: SIMD4(alpha, alpha, alpha, alpha))
        UnsafeMutableRawPointer(destination).storeBytes(of: round8(clamped), as: SIMD4<UInt8>.self)
    }

    /// Rounds values in `0...255` to the nearest integer (ties to even) with the float-magic trick: adding
    /// 1.5 × 2²³ leaves the rounded integer in the low mantissa bits. Avoids the libm calls of the generic
    /// rounding conversions.
    @inline(__always)
    static func round8(_ values: SIMD4<Float>) -> SIMD4<UInt8> {
        let biased = values + 12_582_912
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(biased, to: SIMD4<UInt32>.self))
    }
}

extension Kernels {
    /// Replaces the colour of `count` premultiplied pixels by its Rec. 601 luma, in place. The weights
    /// (77, 150, 29) / 256 sum to one, so the luma never exceeds alpha.
    static func grayscale(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        let weights = SIMD4<UInt32>(77, 150, 29, 0)
        for index in 0..<count {
            let pointer = UnsafeMutableRawPointer(pixels + index * 4)
            let pixel = SIMD4<UInt32>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD4<UInt8>.self))
            let luma = UInt8(truncatingIfNeeded: ((pixel &* weights).wrappedSum() &+ 128) >> 8)
            pointer.storeBytes(of: SIMD4(luma, luma, luma, UInt8(truncatingIfNeeded: pixel.w)), as: SIMD4<UInt8>.self)
        }
    }
}
