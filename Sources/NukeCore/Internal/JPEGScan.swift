import Foundation

/// Reads the few JPEG facts the core needs without a codec: whether the image is progressive, and where the
/// EXIF thumbnail is. Walks the marker segments before the first scan in place (no copy of the data, which
/// arrives again with every chunk of a download); every offset is bounds-checked, so any bytes are safe.
enum JPEGScan {
    /// What the data received so far says about the EXIF thumbnail.
    enum Thumbnail: Equatable {
        /// The thumbnail's bytes (a complete JPEG).
        case found(Data)
        /// The headers that could hold it haven't all arrived.
        case pending
        /// There is none (the frame header came first, or the data is no JPEG or is malformed).
        case absent
    }

    /// `true` when the frame header (SOF) received so far is a progressive one; `false` for baseline frames,
    /// non-JPEG data, or data that doesn't reach the frame header yet.
    static func isProgressive(_ data: Data) -> Bool {
        var isProgressive = false
        _ = walkSegments(data) { marker, _ in
            guard isFrameHeader(marker) else { return true }
            isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
            return false
        }
        return isProgressive
    }

    /// The embedded EXIF thumbnail, once the APP1 segment that holds it has arrived.
    static func exifThumbnail(_ data: Data) -> Thumbnail {
        var thumbnail: Data?
        let end = walkSegments(data) { marker, payload in
            guard !isFrameHeader(marker) else { return false }  // EXIF comes before the frame.
            if marker == 0xE1, let found = thumbnailInExif(payload) {
                thumbnail = found
                return false
            }
            return true
        }
        if let thumbnail { return .found(thumbnail) }
        return end == .incomplete ? .pending : .absent
    }

    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Why a walk stopped.
    private enum WalkEnd {
        /// `body` returned `false`.
        case stopped
        /// The data ends inside the headers: more may come.
        case incomplete
        /// The first scan (or the end of the image) came, or the bytes aren't JPEG headers.
        case finished
    }

    /// Calls `body` with each complete marker segment before the first scan, until it returns `false`. A frame
    /// header whose segment isn't complete yet is still reported (its marker is enough to classify it).
    private static func walkSegments(
        _ data: Data, _ body: (UInt8, UnsafeRawBufferPointer) -> Bool
    ) -> WalkEnd {
        data.withUnsafeBytes { bytes in
            let count = min(bytes.count, 1 << 20)  // Headers live in the first megabyte or not at all.
            guard count >= 2 else { return .incomplete }
            guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .finished }
            var offset = 2
            while offset + 4 <= count {
                guard bytes[offset] == 0xFF else { return .finished }
                let marker = bytes[offset + 1]
                if marker == 0xFF {  // Fill byte.
                    offset += 1
                    continue
                }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                    offset += 2
                    continue
                }
                if marker == 0xDA || marker == 0xD9 { return .finished }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length >= 2 else { return .finished }
                let end = offset + 2 + length
                guard end <= count else {
                    if isFrameHeader(marker), !body(marker, UnsafeRawBufferPointer(rebasing: bytes[0..<0])) {
                        return .stopped
                    }
                    return count < bytes.count ? .finished : .incomplete
                }
                guard body(marker, UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<end])) else {
                    return .stopped
                }
                offset = end
            }
            return count < bytes.count ? .finished : .incomplete
        }
    }

    /// The JPEG thumbnail of IFD1 in an APP1 `Exif` payload.
    private static func thumbnailInExif(_ payload: UnsafeRawBufferPointer) -> Data? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard payload.count > 14, payload.prefix(header.count).elementsEqual(header) else { return nil }
        let tiff = UnsafeRawBufferPointer(rebasing: payload[header.count...])
        let isLittleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): isLittleEndian = true
        case (0x4D, 0x4D): isLittleEndian = false
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size <= 4, offset <= tiff.count - size else { return nil }
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
        guard let start, let length, length > 0, start >= 0, length <= tiff.count - start else { return nil }
        return Data(tiff[start..<(start + length)])
    }
}
