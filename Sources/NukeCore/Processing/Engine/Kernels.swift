/// The vectorized inner loops of the processors. All pointers address premultiplied RGBA values; the
/// callers guarantee the counts.
enum Kernels {
    /// `destination[i] = Float(source[i])`.
    static func convert(_ source: UnsafePointer<UInt8>, count: Int, into destination: UnsafeMutablePointer<Float>) {
        var i = 0
        while i + 16 <= count {
            let bytes = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(destination + i).storeBytes(of: SIMD16<Float>(bytes), as: SIMD16<Float>.self)
            i += 16
        }
        while i < count {
            destination[i] = Float(source[i])
            i += 1
        }
    }

    /// `destination[i] = Float(source[i]) * scale`.
    static func convert(
        _ source: UnsafePointer<UInt16>, count: Int, scale: Float, into destination: UnsafeMutablePointer<Float>
    ) {
        var i = 0
        while i + 8 <= count {
            let values = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<UInt16>.self)
            let floats = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: values)) * scale
            UnsafeMutableRawPointer(destination + i).storeBytes(of: floats, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            destination[i] = Float(source[i]) * scale
            i += 1
        }
    }

    /// `destination[i] = UInt16(source[i])`.
    static func widen(_ source: UnsafePointer<UInt8>, count: Int, into destination: UnsafeMutablePointer<UInt16>) {
        var i = 0
        while i + 16 <= count {
            let bytes = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(destination + i).storeBytes(
                of: SIMD16<UInt16>(truncatingIfNeeded: bytes), as: SIMD16<UInt16>.self)
            i += 16
        }
        while i < count {
            destination[i] = UInt16(source[i])
            i += 1
        }
    }

    /// `destination[i] += UInt16(source[i])` (wrapping; callers keep sums below 65536).
    static func accumulate(_ source: UnsafePointer<UInt8>, count: Int, into destination: UnsafeMutablePointer<UInt16>) {
        var i = 0
        while i + 16 <= count {
            let bytes = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let sums = UnsafeRawPointer(destination + i).loadUnaligned(as: SIMD16<UInt16>.self)
            UnsafeMutableRawPointer(destination + i).storeBytes(
                of: sums &+ SIMD16<UInt16>(truncatingIfNeeded: bytes), as: SIMD16<UInt16>.self)
            i += 16
        }
        while i < count {
            destination[i] &+= UInt16(source[i])
            i += 1
        }
    }

    /// `destination[i] = Σ weights[t] * rows[t][i]` over `taps` rows of `count` floats.
    static func weightedSum(
        rows: UnsafePointer<UnsafePointer<Float>>,
        weights: UnsafePointer<Float>,
        taps: Int,
        count: Int,
        into destination: UnsafeMutablePointer<Float>
    ) {
        var i = 0
        while i + 16 <= count {
            var sum = SIMD16<Float>()
            for tap in 0..<taps {
                let values = UnsafeRawPointer(rows[tap] + i).loadUnaligned(as: SIMD16<Float>.self)
                sum += values * weights[tap]
            }
            UnsafeMutableRawPointer(destination + i).storeBytes(of: sum, as: SIMD16<Float>.self)
            i += 16
        }
        while i < count {
            var sum = SIMD4<Float>()
            for tap in 0..<taps {
                sum += UnsafeRawPointer(rows[tap] + i).loadUnaligned(as: SIMD4<Float>.self) * weights[tap]
            }
            UnsafeMutableRawPointer(destination + i).storeBytes(of: sum, as: SIMD4<Float>.self)
            i += 4
        }
    }

    /// Filters one row of float pixels horizontally: output pixel `x` is
    /// `Σ weights[x * taps + t] * source[starts[x] + t]`, with each weight repeated in all four lanes (which
    /// saves a shuffle per tap in the hottest loop of a resize).
    static func filterRow(
        _ source: UnsafePointer<Float>,
        starts: UnsafePointer<Int>,
        weights: UnsafePointer<SIMD4<Float>>,
        taps: Int,
        count: Int,
        into destination: UnsafeMutablePointer<Float>
    ) {
        for x in 0..<count {
            let pixels = UnsafeRawPointer(source + starts[x] &* 4)
            let w = weights + x &* taps
            // Four independent sums, so the additions don't wait on each other.
            var sum0 = SIMD4<Float>()
            var sum1 = SIMD4<Float>()
            var sum2 = SIMD4<Float>()
            var sum3 = SIMD4<Float>()
            var tap = 0
            while tap &+ 4 <= taps {
                let p = pixels + tap &* 16
                sum0 += p.loadUnaligned(as: SIMD4<Float>.self) * w[tap]
                sum1 += p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self) * w[tap &+ 1]
                sum2 += p.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self) * w[tap &+ 2]
                sum3 += p.loadUnaligned(fromByteOffset: 48, as: SIMD4<Float>.self) * w[tap &+ 3]
                tap &+= 4
            }
            while tap < taps {
                sum0 += (pixels + tap &* 16).loadUnaligned(as: SIMD4<Float>.self) * w[tap]
                tap &+= 1
            }
            let sum = (sum0 + sum1) + (sum2 + sum3)
            UnsafeMutableRawPointer(destination + x &* 4).storeBytes(of: sum, as: SIMD4<Float>.self)
        }
    }

    /// ``filterRow(_:starts:weights:taps:count:into:)`` for two rows with the same taps at once, which loads
    /// each weight once for both.
    static func filterRows(
        _ first: UnsafePointer<Float>,
        _ second: UnsafePointer<Float>,
        starts: UnsafePointer<Int>,
        weights: UnsafePointer<SIMD4<Float>>,
        taps: Int,
        count: Int,
        into firstDestination: UnsafeMutablePointer<Float>,
        _ secondDestination: UnsafeMutablePointer<Float>
    ) {
        for x in 0..<count {
            let offset = starts[x] &* 16
            let pixels0 = UnsafeRawPointer(first) + offset
            let pixels1 = UnsafeRawPointer(second) + offset
            let w = weights + x &* taps
            var sum0 = SIMD4<Float>()
            var sum1 = SIMD4<Float>()
            var sum2 = SIMD4<Float>()
            var sum3 = SIMD4<Float>()
            var tap = 0
            while tap &+ 2 <= taps {
                let byteOffset = tap &* 16
                let w0 = w[tap]
                let w1 = w[tap &+ 1]
                sum0 += pixels0.loadUnaligned(fromByteOffset: byteOffset, as: SIMD4<Float>.self) * w0
                sum1 += pixels1.loadUnaligned(fromByteOffset: byteOffset, as: SIMD4<Float>.self) * w0
                sum2 += pixels0.loadUnaligned(fromByteOffset: byteOffset &+ 16, as: SIMD4<Float>.self) * w1
                sum3 += pixels1.loadUnaligned(fromByteOffset: byteOffset &+ 16, as: SIMD4<Float>.self) * w1
                tap &+= 2
            }
            if tap < taps {
                let byteOffset = tap &* 16
                sum0 += pixels0.loadUnaligned(fromByteOffset: byteOffset, as: SIMD4<Float>.self) * w[tap]
                sum1 += pixels1.loadUnaligned(fromByteOffset: byteOffset, as: SIMD4<Float>.self) * w[tap]
            }
            UnsafeMutableRawPointer(firstDestination + x &* 4).storeBytes(of: sum0 + sum2, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(secondDestination + x &* 4).storeBytes(of: sum1 + sum3, as: SIMD4<Float>.self)
        }
    }

    /// Stores `count` float pixels as 8-bit premultiplied RGBA (see ``store(_:to:)``).
    static func store(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<UInt8>) {
        for x in 0..<count {
            store(UnsafeRawPointer(source + x * 4).loadUnaligned(as: SIMD4<Float>.self), to: destination + x * 4)
        }
    }

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
