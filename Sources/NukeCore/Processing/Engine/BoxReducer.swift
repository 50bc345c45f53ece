/// Produces the rows of the box stage of a resize as premultiplied float RGBA.
struct BoxReducer {
    let source: UnsafePointer<UInt8>
    let bytesPerRow: Int
    let gridX: BoxGrid
    let gridY: BoxGrid
    /// Scratch for the column sums of one cell row: `(gridX.upper - gridX.lower) * 4` values.
    let sums: UnsafeMutablePointer<UInt16>

    /// Writes reduced row `index` (`gridX.count` pixels) to `destination`.
    func reduceRow(_ index: Int, into destination: UnsafeMutablePointer<Float>) {
        let rows = gridY.range(of: index)
        let firstColumn = source + gridX.lower * 4
        let valueCount = (gridX.upper - gridX.lower) * 4
        if gridX.factor == 1 && rows.count == 1 {
            Kernels.convert(firstColumn + rows.lowerBound * bytesPerRow, count: valueCount, into: destination)
            return
        }
        Kernels.widen(firstColumn + rows.lowerBound * bytesPerRow, count: valueCount, into: sums)
        for row in rows.dropFirst() {
            Kernels.accumulate(firstColumn + row * bytesPerRow, count: valueCount, into: sums)
        }
        let rowCount = Float(rows.count)
        if gridX.factor == 1 {
            Kernels.convert(sums, count: valueCount, scale: 1 / rowCount, into: destination)
            return
        }
        for cell in 0..<gridX.count {
            let columns = gridX.range(of: cell)
            var total = SIMD4<Int32>()
            var pointer = sums + (columns.lowerBound - gridX.lower) * 4
            for _ in columns {
                total &+= SIMD4<Int32>(
                    truncatingIfNeeded: UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<UInt16>.self))
                pointer += 4
            }
            let average = SIMD4<Float>(total) * (1 / (rowCount * Float(columns.count)))
            UnsafeMutableRawPointer(destination + cell * 4).storeBytes(of: average, as: SIMD4<Float>.self)
        }
    }
}
