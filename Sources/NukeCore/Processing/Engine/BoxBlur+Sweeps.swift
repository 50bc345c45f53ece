extension BoxBlur {
    /// The horizontal sweep: blurs `rows` of `source` into 16-bit fixed-point `destination` rows.
    func blurRows(
        _ rows: Range<Int>,
        source: UnsafePointer<UInt8>,
        bytesPerRow: Int,
        width: Int,
        into destination: UnsafeMutablePointer<UInt16>
    ) {
        let (b1, b2, b3) = (boxes[0], boxes[1], boxes[2])
        let lag = b2.right + b3.right
        // The row, extended on both sides by copies of the edge pixels, so the sweep needs no bounds checks:
        // step `t` (from 1 - b1.right) reads x = t + b1.right and x = t - b1.left - 1.
        let padLeft = b1.left + b1.right
        let padRight = b1.right + lag
        let padded = UnsafeMutablePointer<UInt32>.allocate(capacity: padLeft + width + padRight)
        let ring1 = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: b2.width)
        let ring2 = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: b3.width)
        defer {
            padded.deallocate()
            ring1.deallocate()
            ring2.deallocate()
        }
        let scale = Float(1 << fractionBits) / Float(divisor)
        let (w1, w2) = (Int32(b1.width), Int32(b2.width))
        for row in rows {
            let pixels = UnsafeRawPointer(source + row * bytesPerRow)
            let first = pixels.loadUnaligned(as: UInt32.self)
            let last = pixels.loadUnaligned(fromByteOffset: (width - 1) * 4, as: UInt32.self)
            padded.initialize(repeating: first, count: padLeft)
            UnsafeMutableRawPointer(padded + padLeft).copyMemory(from: pixels, byteCount: width * 4)
            (padded + padLeft + width).initialize(repeating: last, count: padRight)
            let edge = Self.widen(first)
            var sum1 = edge &* w1
            var sum2 = sum1 &* w2
            var sum3 = sum2 &* Int32(b3.width)
            ring1.initialize(repeating: sum1, count: b2.width)
            ring2.initialize(repeating: sum2, count: b3.width)
            var slot1 = 0
            var slot2 = 0
            let out = destination + row * width * 4
            // Step `t` computes box 1 at t, box 2 at t - b2.right and box 3 at t - lag; `t` starts where the
            // sums of everything before are edge-only.
            var entering = padded + padLeft + 1
            var leaving = padded
            for t in (1 - b1.right)..<(width + lag) {
                sum1 &+= Self.widen(entering.pointee) &- Self.widen(leaving.pointee)
                entering += 1
                leaving += 1
                let old1 = ring1[slot1]
                ring1[slot1] = sum1
                slot1 = slot1 + 1 == b2.width ? 0 : slot1 + 1
                sum2 &+= sum1 &- old1
                let old2 = ring2[slot2]
                ring2[slot2] = sum2
                slot2 = slot2 + 1 == b3.width ? 0 : slot2 + 1
                sum3 &+= sum2 &- old2
                let x = t - lag
                if x >= 0 {
                    let value = Self.round16(SIMD4<Float>(sum3) * scale)
                    UnsafeMutableRawPointer(out + x * 4).storeBytes(of: value, as: SIMD4<UInt16>.self)
                }
            }
        }
    }

    @inline(__always)
    static func widen(_ pixel: UInt32) -> SIMD4<Int32> {
        SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(pixel, to: SIMD4<UInt8>.self))
    }

    /// Rounds values in `0...65535` to the nearest integer (see ``Kernels/round8(_:)``).
    @inline(__always)
    static func round16(_ values: SIMD4<Float>) -> SIMD4<UInt16> {
        SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(values + 12_582_912, to: SIMD4<UInt32>.self))
    }
}

extension BoxBlur {
    /// The vertical sweep: blurs `columns` of the 16-bit `source` rows into the 8-bit `destination`.
    func blurColumns(
        _ columns: Range<Int>,
        source: UnsafePointer<UInt16>,
        width: Int,
        height: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        let (b1, b2, b3) = (boxes[0], boxes[1], boxes[2])
        let lanes = columns.count * 4
        let state = UnsafeMutablePointer<Int32>.allocate(capacity: lanes * (3 + b2.width + b3.width))
        defer { state.deallocate() }
        let sum1 = state
        let sum2 = state + lanes
        let sum3 = state + 2 * lanes
        let ring1 = state + 3 * lanes
        let ring2 = ring1 + b2.width * lanes
        let rowStride = width * 4
        let firstLane = columns.lowerBound * 4
        // Before the first step, every sum sees only copies of row 0.
        for lane in 0..<lanes {
            let edge = Int32(source[firstLane + lane])
            sum1[lane] = edge * Int32(b1.width)
            sum2[lane] = sum1[lane] * Int32(b2.width)
            sum3[lane] = sum2[lane] * Int32(b3.width)
            for slot in 0..<b2.width { ring1[slot * lanes + lane] = sum1[lane] }
            for slot in 0..<b3.width { ring2[slot * lanes + lane] = sum2[lane] }
        }
        let scale = 1 / (Float(divisor) * Float(1 << fractionBits))
        let lag = b2.right + b3.right
        var slot1 = 0
        var slot2 = 0
        for t in (1 - b1.right)..<(height + lag) {
            let entering = source + min(t + b1.right, height - 1) * rowStride + firstLane
            let leaving = source + min(max(t - b1.left - 1, 0), height - 1) * rowStride + firstLane
            let row1 = ring1 + slot1 * lanes
            let row2 = ring2 + slot2 * lanes
            let y = t - lag
            let output: UnsafeMutablePointer<UInt8>? = y >= 0 ? destination + y * rowStride + firstLane : nil
            var lane = 0
            while lane + 8 <= lanes {
                let s1 =
                    Self.load8(sum1 + lane) &+ SIMD8<Int32>(truncatingIfNeeded: Self.load8(entering + lane))
                    &- SIMD8<Int32>(truncatingIfNeeded: Self.load8(leaving + lane))
                Self.store8(s1, sum1 + lane)
                let s2 = Self.load8(sum2 + lane) &+ s1 &- Self.load8(row1 + lane)
                Self.store8(s1, row1 + lane)
                Self.store8(s2, sum2 + lane)
                let s3 = Self.load8(sum3 + lane) &+ s2 &- Self.load8(row2 + lane)
                Self.store8(s2, row2 + lane)
                Self.store8(s3, sum3 + lane)
                if let output {
                    let biased = SIMD8<Float>(s3) * scale + 12_582_912
                    let bytes = SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast(biased, to: SIMD8<UInt32>.self))
                    UnsafeMutableRawPointer(output + lane).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
                }
                lane += 8
            }
            if lane < lanes {  // One pixel left (4 lanes).
                let s1 =
                    Self.load4(sum1 + lane) &+ SIMD4<Int32>(truncatingIfNeeded: Self.load4(entering + lane))
                    &- SIMD4<Int32>(truncatingIfNeeded: Self.load4(leaving + lane))
                Self.store4(s1, sum1 + lane)
                let s2 = Self.load4(sum2 + lane) &+ s1 &- Self.load4(row1 + lane)
                Self.store4(s1, row1 + lane)
                Self.store4(s2, sum2 + lane)
                let s3 = Self.load4(sum3 + lane) &+ s2 &- Self.load4(row2 + lane)
                Self.store4(s2, row2 + lane)
                Self.store4(s3, sum3 + lane)
                if let output {
                    let biased = SIMD4<Float>(s3) * scale + 12_582_912
                    let bytes = SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(biased, to: SIMD4<UInt32>.self))
                    UnsafeMutableRawPointer(output + lane).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
                }
            }
            slot1 = slot1 + 1 == b2.width ? 0 : slot1 + 1
            slot2 = slot2 + 1 == b3.width ? 0 : slot2 + 1
        }
    }

    @inline(__always)
    private static func load8<T: SIMDScalar>(_ pointer: UnsafePointer<T>) -> SIMD8<T> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<T>.self)
    }

    @inline(__always)
    private static func load8<T: SIMDScalar>(_ pointer: UnsafeMutablePointer<T>) -> SIMD8<T> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<T>.self)
    }

    @inline(__always)
    private static func store8(_ value: SIMD8<Int32>, _ pointer: UnsafeMutablePointer<Int32>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Int32>.self)
    }

    @inline(__always)
    private static func load4<T: SIMDScalar>(_ pointer: UnsafePointer<T>) -> SIMD4<T> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<T>.self)
    }

    @inline(__always)
    private static func load4<T: SIMDScalar>(_ pointer: UnsafeMutablePointer<T>) -> SIMD4<T> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<T>.self)
    }

    @inline(__always)
    private static func store4(_ value: SIMD4<Int32>, _ pointer: UnsafeMutablePointer<Int32>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD4<Int32>.self)
    }
}
