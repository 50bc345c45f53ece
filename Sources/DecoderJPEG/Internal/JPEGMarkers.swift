import Foundation

/// A bounds-checked walk over JPEG markers, for what libjpeg doesn't tell us: the EXIF orientation, how
/// many scans of a progressive file have fully arrived, and which scans a reduced-size decode needs.
///
/// Every read is checked against the buffer; malformed or truncated data ends the walk early.
enum JPEGMarkers {
    /// The result of walking a (possibly partial) JPEG file.
    struct Scans: Equatable {
        /// `true` when the frame header is a progressive SOF (SOF2, SOF6, SOF10 or SOF14).
        var isProgressive = false
        /// The number of scans whose data has fully arrived (a marker follows it).
        var completedScanCount = 0
        /// The offset just past the last completed scan: decoding `data[..<end]` shows every completed scan.
        var completedScansEnd = 0
    }

    /// One marker segment. For a start-of-scan it includes the entropy-coded data that follows.
    struct Segment {
        /// The marker code (the byte after 0xFF).
        var marker: UInt8
        /// The offset of the segment's first byte (its 0xFF, including fill bytes).
        var start: Int
        /// The segment's payload, without the marker and length bytes (empty for standalone markers).
        var payload: Range<Int>
        /// The offset just past the segment (past the entropy-coded data for a scan).
        var end: Int
        /// `false` for a scan whose entropy-coded data runs to the end of the buffer (not yet followed by a
        /// marker).
        var isComplete: Bool
    }

    static let startOfImage: UInt8 = 0xD8
    static let endOfImage: UInt8 = 0xD9
    static let startOfScan: UInt8 = 0xDA
    static let app1: UInt8 = 0xE1

    /// The EXIF orientation from the APP1 segments before the first scan; `.up` if there is none.
    static func orientation(in bytes: UnsafeRawBufferPointer) -> ExifOrientation {
        var orientation = ExifOrientation.up
        walk(bytes, stoppingAtScan: true) { segment in
            if segment.marker == app1,
                let value = ExifOrientation(exifSegment: UnsafeRawBufferPointer(rebasing: bytes[segment.payload]))
            {
                orientation = value
                return false
            }
            return segment.marker != startOfScan
        }
        return orientation
    }

    /// Counts the completed scans of a possibly partial file.
    static func scans(in bytes: UnsafeRawBufferPointer) -> Scans {
        var result = Scans()
        walk(bytes) { segment in
            if isStartOfFrame(segment.marker) {
                result.isProgressive = isProgressiveFrame(segment.marker)
            }
            if segment.marker == startOfScan && segment.isComplete {
                result.completedScanCount += 1
                result.completedScansEnd = segment.end
            }
            return true
        }
        return result
    }

    /// For a complete progressive file, a copy without the scans a 1/8-scale decode doesn't use, keeping
    /// every other segment in order; `nil` for baseline files, partial or malformed data, or when every scan
    /// is needed.
    ///
    /// At 1/8 scale libjpeg reads only the DC coefficient of full-resolution components, and scales
    /// subsampled components up through a larger inverse DCT (2×2 for 4:2:0 chroma) rather than upsampling
    /// them, so those need the low AC coefficients too. A scan is kept when, for any of its components, its
    /// spectral selection starts at or before the last zigzag index that component's inverse DCT reads
    /// (0 for 1×1, 4 for 2×2, 24 for 4×4). Decoded at 1/8 without block smoothing, the copy gives the same
    /// pixels as the whole file while skipping most of the entropy decoding (the luma AC scans).
    static func scansNeededAtOneEighth(of bytes: UnsafeRawBufferPointer) -> Data? {
        var frame: [UInt8: Int] = [:]  // Component identifier → last zigzag index read at 1/8.
        var isProgressive = false
        var isComplete = false
        var kept: [Range<Int>] = [0..<2]
        var droppedScan = false
        var wellFormed = true
        walk(bytes) { segment in
            if isStartOfFrame(segment.marker) {
                isProgressive = isProgressiveFrame(segment.marker)
                guard let components = lastIndexAtOneEighth(frame: bytes, payload: segment.payload) else {
                    wellFormed = false
                    return false
                }
                frame = components
            }
            if segment.marker == endOfImage {
                isComplete = true
            }
            if segment.marker == startOfScan {
                guard segment.isComplete, let scan = scanHeader(bytes, payload: segment.payload),
                    scan.components.allSatisfy({ frame[$0] != nil })
                else {
                    wellFormed = false
                    return false
                }
                let isNeeded = scan.components.contains { scan.spectralStart <= frame[$0] ?? 63 }
                if !isNeeded {
                    droppedScan = true
                    return true
                }
            }
            kept.append(segment.start..<segment.end)
            return true
        }
        guard isProgressive, isComplete, droppedScan, wellFormed else { return nil }
        var result = Data(capacity: kept.reduce(0) { $0 + $1.count })
        for range in kept {
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        return result
    }

    /// For each component of a frame header, the last zigzag index its inverse DCT reads at 1/8 scale,
    /// following libjpeg's choice of per-component DCT scaling (doubling while both sampling ratios allow).
    private static func lastIndexAtOneEighth(frame bytes: UnsafeRawBufferPointer, payload: Range<Int>) -> [UInt8: Int]?
    {
        guard payload.count >= 6 else { return nil }
        let count = Int(bytes[payload.lowerBound + 5])
        guard count >= 1, payload.count >= 6 + 3 * count else { return nil }
        var sampling: [(id: UInt8, h: Int, v: Int)] = []
        for index in 0..<count {
            let offset = payload.lowerBound + 6 + 3 * index
            let factors = Int(bytes[offset + 1])
            sampling.append((bytes[offset], factors >> 4, factors & 0x0F))
        }
        let maxH = sampling.map(\.h).max() ?? 1
        let maxV = sampling.map(\.v).max() ?? 1
        var result: [UInt8: Int] = [:]
        for component in sampling {
            guard component.h > 0, component.v > 0 else { return nil }
            var size = 1
            while size < 8 && maxH % (component.h * size * 2) == 0 && maxV % (component.v * size * 2) == 0 {
                size *= 2
            }
            result[component.id] = [1: 0, 2: 4, 4: 24][size] ?? 63
        }
        return result
    }

    /// The component selectors and spectral selection start (Ss) of a scan header.
    private static func scanHeader(
        _ bytes: UnsafeRawBufferPointer, payload: Range<Int>
    ) -> (components: [UInt8], spectralStart: Int)? {
        guard let first = payload.first else { return nil }
        let count = Int(bytes[first])
        let offset = first + 1 + 2 * count
        guard count >= 1, offset < payload.upperBound else { return nil }
        let components = (0..<count).map { bytes[first + 1 + 2 * $0] }
        return (components, Int(bytes[offset]))
    }

    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    private static func isProgressiveFrame(_ marker: UInt8) -> Bool {
        marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
    }

    /// Calls `body` with each segment after SOI, in order, until it returns `false`, the data ends or is
    /// malformed. The end-of-image marker is the last segment reported. With `stoppingAtScan`, the first
    /// start-of-scan is the last segment reported, without looking for the end of its entropy-coded data (its `end`
    /// is that of its header, `isComplete` is `false`): for callers that only read the segments before the image
    /// data, which then cost nothing like the size of the file.
    static func walk(_ bytes: UnsafeRawBufferPointer, stoppingAtScan: Bool = false, _ body: (Segment) -> Bool) {
        let count = bytes.count
        guard count >= 2, bytes[0] == 0xFF, bytes[1] == startOfImage else { return }
        var position = 2
        while position + 1 < count {
            let start = position
            guard bytes[position] == 0xFF else { return }  // Not at a marker: malformed.
            var markerPosition = position + 1
            while markerPosition < count && bytes[markerPosition] == 0xFF {
                markerPosition += 1  // Fill bytes.
            }
            guard markerPosition < count else { return }
            let marker = bytes[markerPosition]
            position = markerPosition + 1
            if marker == endOfImage {
                _ = body(
                    Segment(marker: marker, start: start, payload: position..<position, end: position, isComplete: true)
                )
                return
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == startOfImage {
                let segment = Segment(
                    marker: marker, start: start, payload: position..<position, end: position, isComplete: true)
                guard body(segment) else { return }
                continue
            }
            guard position + 2 <= count else { return }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2, position + length <= count else { return }
            let payload = (position + 2)..<(position + length)
            position += length
            var segment = Segment(marker: marker, start: start, payload: payload, end: position, isComplete: true)
            if marker == startOfScan && stoppingAtScan {
                segment.isComplete = false
                _ = body(segment)
                return
            }
            if marker == startOfScan {
                let next = nextMarker(in: bytes, from: position)
                segment.end = next ?? count
                segment.isComplete = next != nil
            }
            guard body(segment), segment.isComplete else { return }
            position = segment.end
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
