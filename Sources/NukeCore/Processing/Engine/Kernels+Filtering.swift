/// The filter loops of a resize.
extension Kernels {
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
}
