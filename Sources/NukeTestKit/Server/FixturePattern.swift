public import Foundation

/// A deterministic, non-repeating-looking byte sequence for bodies of any size: the server streams slices of it
/// (``LoopbackHTTPServer/Route/pattern(size:)``) and tests check received bytes against it without keeping a
/// copy of what was sent.
///
/// The sequence repeats with a period of ``period`` bytes — a prime larger than any chunk size, so a chunk that
/// is dropped, duplicated or shifted never lines up with the expected bytes.
public enum FixturePattern {
    /// The length of one repetition (65 537, a prime).
    public static let period = 65_537

    /// One period followed by its first 1 MB again, so any slice of up to 1 MB is a single copy from the table.
    private static let extendedTable: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: period + (1 << 20))
        for index in 0..<period {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        for index in period..<bytes.count { bytes[index] = bytes[index - period] }
        return bytes
    }()

    /// The bytes at positions `range` of the sequence.
    public static func bytes(in range: Range<Int>) -> Data {
        var data = Data(capacity: range.count)
        var position = range.lowerBound
        while position < range.upperBound {
            let count = min(range.upperBound - position, 1 << 20)
            let start = position % period
            extendedTable.withUnsafeBufferPointer { data.append($0.baseAddress! + start, count: count) }
            position += count
        }
        return data
    }

    /// `true` if `data` equals the sequence starting at position `offset`.
    public static func matches(_ data: Data, at offset: Int) -> Bool {
        var position = 0
        return data.withUnsafeBytes { buffer in
            while position < buffer.count {
                let count = min(buffer.count - position, 1 << 20)
                let start = (offset + position) % period
                let equal = extendedTable.withUnsafeBytes { table in
                    memcmp(buffer.baseAddress! + position, table.baseAddress! + start, count) == 0
                }
                guard equal else { return false }
                position += count
            }
            return true
        }
    }
}
