/// An ISO base media box: its type and where its payload lies in the data.
struct HEIFBox {
    var type: String
    var payload: Range<Int>
}

/// Walks the boxes in a range of the data, stopping at the first that doesn't fit (at most 4096 boxes).
struct HEIFBoxReader {
    let bytes: UnsafeRawBufferPointer
    let range: Range<Int>

    /// The boxes inside the file's top-level `meta` box (a full box), or none.
    static func metaChildren(of bytes: UnsafeRawBufferPointer) -> [HEIFBox] {
        var reader = HEIFBoxReader(bytes: bytes, range: 0..<bytes.count)
        guard let meta = reader.boxes().first(where: { $0.type == "meta" }), meta.payload.count >= 4 else { return [] }
        var children = HEIFBoxReader(bytes: bytes, range: (meta.payload.lowerBound + 4)..<meta.payload.upperBound)
        return children.boxes()
    }

    /// The boxes of the range, in order.
    mutating func boxes() -> [HEIFBox] {
        var result: [HEIFBox] = []
        var at = range.lowerBound
        while result.count < 4096, let size32 = bytes.uint(at: at, size: 4, within: range),
            let type = bytes.fourCC(at: at + 4, within: range)
        {
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let size64 = bytes.uint(at: at + 8, size: 8, within: range), size64 <= UInt64(Int.max) else {
                    break
                }
                header = 16
                size = Int(size64)
            } else if size32 == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { break }
            result.append(HEIFBox(type: type, payload: (at + header)..<(at + size)))
            at += size
        }
        return result
    }
}

extension UnsafeRawBufferPointer {
    /// The byte at `offset`, or `nil` outside the buffer.
    func uint8(at offset: Int) -> UInt8? {
        offset >= 0 && offset < count ? self[offset] : nil
    }

    /// A big-endian unsigned integer of `size` bytes (0 to 8) inside `range`; 0 for a size of 0.
    func uint(at offset: Int, size: Int, within range: Range<Int>) -> UInt64? {
        guard size >= 0, size <= 8, offset >= range.lowerBound, offset <= range.upperBound - size,
            range.upperBound <= count
        else { return nil }
        return (0..<size).reduce(UInt64(0)) { $0 << 8 | UInt64(self[offset + $1]) }
    }

    /// The four-character code at `offset` inside `range` (bytes that aren't UTF-8 become U+FFFD).
    func fourCC(at offset: Int, within range: Range<Int>) -> String? {
        guard uint(at: offset, size: 4, within: range) != nil else { return nil }
        return String(decoding: self[offset..<(offset + 4)], as: UTF8.self)
    }
}
