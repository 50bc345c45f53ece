internal import CNukeKernels

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
        // `Resampler.maximumBoxFactor` keeps the column sums within 16 bits; the grid's centring keeps the cell
        // offset within one cell.
        CNukeKernels_BoxReduceRow(
            source + rows.lowerBound * bytesPerRow + gridX.lower * 4, bytesPerRow, rows.count,
            gridX.upper - gridX.lower, gridX.origin - gridX.lower, gridX.factor, gridX.count, sums, destination)
    }
}
