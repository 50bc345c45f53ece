import Foundation

/// Reads the few JPEG facts the core needs without a codec: whether the image is progressive, and where the
/// EXIF thumbnail is. Walks marker segments only; every offset is bounds-checked, so any bytes are safe.
enum JPEGScan {
    /// `true` when the frame header (SOF) received so far is a progressive one; `false` for baseline frames,
    /// non-JPEG data, or data that doesn't reach the frame header yet.
    static func isProgressive(_ data: Data) -> Bool {
        var isProgressive = false
        walkSegments(data) { marker, _ in
            guard isFrameHeader(marker) else { return true }
            isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
            return false
        }
        return isProgressive
    }

    /// The embedded EXIF thumbnail (a complete JPEG), once the APP1 segment that holds it has arrived;
    /// `nil` if there is none or it is malformed.
    static func exifThumbnail(_ data: Data) -> Data? {
        var thumbnail: Data?
        walkSegments(data) { marker, payload in
            guard !isFrameHeader(marker) else { return false }  // EXIF comes before the frame.
            if marker == 0xE1, let found = thumbnailInExif(payload) {
                thumbnail = found
                return false
            }
            return true
        }
        return thumbnail
    }

    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Calls `body` with each complete marker segment before the first scan; stops when `body` returns `false`,
    /// at the start of scan, or where the data ends.
    private static func walkSegments(_ data: Data, _ body: (UInt8, Data) -> Bool) {
        let bytes = [UInt8](data.prefix(1 << 20))  // Headers live in the first megabyte or not at all.
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // Fill byte.
                offset += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return }
            let end = offset + 2 + length
            guard end <= bytes.count else {
                // Incomplete segment: a frame header's marker alone is enough to classify it.
                if isFrameHeader(marker) { _ = body(marker, Data()) }
                return
            }
            guard body(marker, Data(bytes[(offset + 4)..<end])) else { return }
            offset = end
        }
    }

    /// The JPEG thumbnail of IFD1 in an APP1 `Exif` payload.
    private static func thumbnailInExif(_ payload: Data) -> Data? {
        let bytes = [UInt8](payload)
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard bytes.count > 14, Array(bytes[0..<6]) == header else { return nil }
        let tiff = Array(bytes[6...])
        let isLittleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): isLittleEndian = true
        case (0x4D, 0x4D): isLittleEndian = false
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size <= 4, offset + size <= tiff.count else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(tiff[offset + (isLittleEndian ? size - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        guard read(2, 2) == 42, let ifd0 = read(4, 4), let count0 = read(ifd0, 2),
            let ifd1 = read(ifd0 + 2 + count0 * 12, 4), ifd1 != 0, let count1 = read(ifd1, 2)
        else { return nil }
        var start: Int?
        var length: Int?
        for index in 0..<min(count1, 64) {
            let entry = ifd1 + 2 + index * 12
            switch read(entry, 2) {
            case 0x0201?: start = read(entry + 8, 4)
            case 0x0202?: length = read(entry + 8, 4)
            default: break
            }
        }
        guard let start, let length, length > 0, start >= 0, start + length <= tiff.count else { return nil }
        return Data(tiff[start..<(start + length)])
    }
}
