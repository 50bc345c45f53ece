/// A bounds-checked walk over JPEG markers, for what libjpeg doesn't tell us: the EXIF orientation, and
/// how many scans of a progressive file have fully arrived.
///
/// Every read is checked against the buffer; malformed or truncated data ends the walk early.
struct JPEGMarkers {
    /// The result of walking a (possibly partial) JPEG file.
    struct Scans: Equatable {
        /// `true` when the frame header is a progressive SOF (SOF2, SOF6, SOF10 or SOF14).
        var isProgressive = false
        /// The number of scans whose data has fully arrived (a marker follows it).
        var completedScanCount = 0
        /// The offset just past the last completed scan: decoding `data[..<end]` shows every completed scan.
        var completedScansEnd = 0
    }

    private static let startOfImage: UInt8 = 0xD8
    private static let endOfImage: UInt8 = 0xD9
    private static let startOfScan: UInt8 = 0xDA
    private static let app1: UInt8 = 0xE1

    /// The EXIF orientation from the APP1 segments before the first scan; `.up` if there is none.
    static func orientation(in bytes: UnsafeRawBufferPointer) -> ExifOrientation {
        var orientation = ExifOrientation.up
        walk(bytes) { marker, segment in
            if marker == app1, let value = ExifOrientation(exifSegment: segment) {
                orientation = value
                return false
            }
            return marker != startOfScan
        }
        return orientation
    }

    /// Counts the completed scans of a possibly partial file.
    static func scans(in bytes: UnsafeRawBufferPointer) -> Scans {
        var result = Scans()
        var scanCount = 0
        walk(bytes) { marker, segment in
            if isStartOfFrame(marker) {
                result.isProgressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
            }
            return true
        } onScanEnd: { end in
            scanCount += 1
            result.completedScanCount = scanCount
            result.completedScansEnd = end
        }
        return result
    }

    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Calls `segment` with each marker and its payload (without the length bytes) until it returns `false`
    /// or the data ends, and `onScanEnd` with the offset of the marker that ends each scan's entropy-coded data.
    private static func walk(
        _ bytes: UnsafeRawBufferPointer,
        segment: (UInt8, UnsafeRawBufferPointer) -> Bool,
        onScanEnd: (Int) -> Void = { _ in }
    ) {
        let count = bytes.count
        guard count >= 2, bytes[0] == 0xFF, bytes[1] == startOfImage else { return }
        var position = 2
        while position + 1 < count {
            guard bytes[position] == 0xFF else { return }  // Not at a marker: malformed.
            var markerPosition = position + 1
            while markerPosition < count && bytes[markerPosition] == 0xFF {
                markerPosition += 1  // Fill bytes.
            }
            guard markerPosition < count else { return }
            let marker = bytes[markerPosition]
            position = markerPosition + 1
            if marker == endOfImage { return }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == startOfImage { continue }
            guard position + 2 <= count else { return }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2, position + length <= count else { return }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(position + 2)..<(position + length)])
            guard segment(marker, payload) else { return }
            position += length
            if marker == startOfScan {
                guard let next = nextMarker(in: bytes, from: position) else { return }
                onScanEnd(next)
                position = next
            }
        }
    }

    /// The offset of the next marker (an 0xFF that is not stuffing or a restart marker) in entropy-coded data.
    private static func nextMarker(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var position = start
        let count = bytes.count
        while position + 1 < count {
            if bytes[position] == 0xFF {
                let next = bytes[position + 1]
                if next != 0x00 && next != 0xFF && !(0xD0...0xD7).contains(next) {
                    return position
                }
                position += next == 0xFF ? 1 : 2
            } else {
                position += 1
            }
        }
        return nil
    }
}
