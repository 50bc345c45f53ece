internal import CJPEGShim
import Dispatch
import NukeCore

/// Converts the rows libjpeg finishes to sRGB while it decodes the next ones: bands of rows go to other threads
/// as soon as they are written (while they are still in the caches), and the last band is converted on the
/// decoding thread. ``finish()`` returns once every band is converted; the pixels must outlive it, so callers
/// call it on every path, errors included (``wait()``).
final class JPEGRowConversion: @unchecked Sendable {
    // @unchecked Sendable: `converted` is only touched on the decoding thread; bands get disjoint rows, and
    // `group.wait()` orders their writes before the image is used.
    private let converter: any ColorRowConverting
    private let address: UInt
    private let width: Int
    private let bytesPerRow: Int
    private let bandRows: Int
    private let group = DispatchGroup()
    /// The rows before this one are converted or on their way.
    private var converted = 0

    init(converter: any ColorRowConverting, pixels: UnsafeMutableRawPointer, width: Int, bytesPerRow: Int) {
        self.converter = converter
        self.address = UInt(bitPattern: pixels)
        self.width = width
        self.bytesPerRow = bytesPerRow
        // About a million pixels per band (a few MB: the rows are still in the L2/L3 cache), at least 16 rows.
        self.bandRows = max(16, (1 << 20) / max(1, width))
    }

    /// Passes libjpeg's "rows written" calls to `rowsWritten(upTo:)`; `context` is this object, unretained.
    static let callback: CJPEGShim_RowsWritten = { context, firstRow, rowCount in
        guard let context else { return }
        Unmanaged<JPEGRowConversion>.fromOpaque(context).takeUnretainedValue().rowsWritten(upTo: firstRow + rowCount)
    }

    /// Rows up to `end` are final: once a band's worth is waiting, it goes to another thread.
    private func rowsWritten(upTo end: Int) {
        guard end - converted >= bandRows else { return }
        let band = converted..<end
        converted = end
        DispatchQueue.global(qos: .userInitiated).async(group: group) { [self] in convert(band) }
    }

    /// Converts rows `converted..<rowCount` on this thread and waits for the other bands.
    func finish(rowCount: Int) {
        if rowCount > converted {
            convert(converted..<rowCount)
            converted = rowCount
        }
        group.wait()
    }

    /// Waits for the bands already handed out (after an error, before the pixels are released).
    func wait() {
        group.wait()
    }

    private func convert(_ rows: Range<Int>) {
        guard let start = UnsafeMutableRawPointer(bitPattern: address + UInt(rows.lowerBound * bytesPerRow)) else {
            return
        }
        converter.convertRows(start, width: width, rowCount: rows.count, bytesPerRow: bytesPerRow)
    }
}
