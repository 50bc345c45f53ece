internal import CNukeKernels

/// The two sweeps of a blur, each a call into `CNukeKernels` (C keeps these loops fast in debug builds too) per
/// band of rows or strip of columns.
extension BoxBlur {
    /// The boxes, as the C sweeps take them.
    var sweepBoxes: CNukeKernels_Boxes {
        CNukeKernels_Boxes(
            left1: boxes[0].left, right1: boxes[0].right, left2: boxes[1].left, right2: boxes[1].right,
            left3: boxes[2].left, right3: boxes[2].right)
    }

    /// The horizontal sweep: blurs `rows` of `source` into 16-bit fixed-point `destination` rows (tightly packed,
    /// `width * 4` values apart).
    func blurRows(
        _ rows: Range<Int>,
        source: UnsafePointer<UInt8>,
        bytesPerRow: Int,
        width: Int,
        into destination: UnsafeMutablePointer<UInt16>
    ) {
        var boxes = sweepBoxes
        let state = UnsafeMutablePointer<Int32>.allocate(capacity: CNukeKernels_BoxBlurRowsStateCount(&boxes))
        defer { state.deallocate() }
        let scale = Float(1 << fractionBits) / Float(divisor)
        CNukeKernels_BoxBlurRows(
            source + rows.lowerBound * bytesPerRow, bytesPerRow, rows.count, width, &boxes, scale, state,
            destination + rows.lowerBound * width * 4)
    }

    /// The vertical sweep: blurs `columns` of the 16-bit `source` rows into the 8-bit `destination`.
    func blurColumns(
        _ columns: Range<Int>,
        source: UnsafePointer<UInt16>,
        width: Int,
        height: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        var boxes = sweepBoxes
        let lanes = columns.count * 4
        let state = UnsafeMutablePointer<Int32>.allocate(capacity: CNukeKernels_BoxBlurColumnsStateCount(&boxes, lanes))
        defer { state.deallocate() }
        let scale = 1 / (Float(divisor) * Float(1 << fractionBits))
        CNukeKernels_BoxBlurColumns(
            source + columns.lowerBound * 4, width * 4, height, lanes, &boxes, scale, state,
            destination + columns.lowerBound * 4, width * 4)
    }
}
