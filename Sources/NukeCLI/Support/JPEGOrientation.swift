import Foundation

/// Reads the EXIF orientation (tag 0x0112 in IFD0 of the APP1 `Exif` segment) of a JPEG file, for `nuke info`.
/// Bounds-checked at every step; returns `nil` for anything unexpected.
enum JPEGOrientation {
    static let names = [
        1: "up", 2: "mirrored", 3: "rotated 180°", 4: "mirrored vertically", 5: "mirrored and rotated 90° left",
        6: "rotated 90° right", 7: "mirrored and rotated 90° right", 8: "rotated 90° left",
    ]

    static func read(_ data: Data) -> Int? {
        let bytes = [UInt8](data.prefix(256 * 1024))
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, marker != 0xDA, marker != 0xD9 else { return nil }
            let start = offset + 4
            let end = min(offset + 2 + length, bytes.count)
            if marker == 0xE1, end - start > 14, Array(bytes[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return orientation(in: Array(bytes[(start + 6)..<end]))
            }
            offset += 2 + length
        }
        return nil
    }

    private static func orientation(in tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func read16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func read32(_ at: Int) -> Int? {
            guard let high = read16(little ? at + 2 : at), let low = read16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard let ifd = read32(4), let count = read16(ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = ifd + 2 + entry * 12
            guard let tag = read16(at) else { return nil }
            if tag == 0x0112, let value = read16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}
