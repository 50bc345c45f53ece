/// How many times an AVIF image sequence plays, read from its container: the edit list (`moov/trak/edts/elst`)
/// of the colour track, which libavif 0.11 doesn't expose.
///
/// The rule is AVIF's (and libavif 1.x's): without an edit list the count is unknown and the sequence loops
/// forever, as browsers play it; an edit list whose "repeat" flag is clear plays once; a repeating one plays
/// `⌈track duration ÷ segment duration⌉` times, forever when the track duration is indefinite. The durations are
/// both in the movie's timescale, so no timescale is read.
///
/// Every length is checked against the bytes before it is used; anything malformed gives `nil` (unknown).
enum AVIFEditList {
    /// The number of times the sequence plays, 0 for forever; `nil` when the file doesn't say (no edit list, or
    /// one that can't be read).
    static func playCount(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let movie = BoxReader(bytes: bytes, range: 0..<bytes.count).first("moov"),
            let track = BoxReader(bytes: bytes, range: movie).colourTrack()
        else { return nil }
        let boxes = BoxReader(bytes: bytes, range: track)
        guard let edits = boxes.first("edts") else { return nil }
        guard let list = BoxReader(bytes: bytes, range: edits).first("elst"), list.count >= 4 else { return nil }
        let version = bytes[list.lowerBound]
        let flags =
            Int(bytes[list.lowerBound + 1]) << 16 | Int(bytes[list.lowerBound + 2]) << 8
            | Int(bytes[list.lowerBound + 3])
        guard flags & 1 != 0 else { return 1 }  // Not repeating: plays once.
        // One entry: entry_count (u32), then segment_duration (u64 in version 1, u32 in version 0).
        guard version <= 1, let entryCount = read(bytes, at: list.lowerBound + 4, size: 4, within: list),
            entryCount == 1,
            let segment = read(bytes, at: list.lowerBound + 8, size: version == 1 ? 8 : 4, within: list), segment > 0,
            let header = boxes.first("tkhd"), let duration = trackDuration(bytes, header: header)
        else { return nil }
        guard let duration else { return 0 }  // Indefinite: forever.
        guard duration > 0 else { return nil }
        let plays = duration / segment + (duration % segment == 0 ? 0 : 1)
        return plays > UInt64(Int32.max) ? 0 : Int(plays)
    }

    /// The `tkhd` duration: `.some(nil)` for indefinite, `nil` when unreadable.
    private static func trackDuration(_ bytes: UnsafeRawBufferPointer, header: Range<Int>) -> UInt64?? {
        guard !header.isEmpty else { return nil }
        switch bytes[header.lowerBound] {
        case 0:
            // version/flags, creation, modification, track_ID, reserved (u32 each), duration (u32).
            guard let value = read(bytes, at: header.lowerBound + 20, size: 4, within: header) else { return nil }
            return value == UInt64(UInt32.max) ? .some(nil) : value
        case 1:
            // version/flags, creation and modification (u64), track_ID, reserved (u32), duration (u64).
            guard let value = read(bytes, at: header.lowerBound + 28, size: 8, within: header) else { return nil }
            return value == UInt64.max ? .some(nil) : value
        default:
            return nil
        }
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`, if it lies within `range`.
    private static func read(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int, within range: Range<Int>
    )
        -> UInt64?
    {
        guard offset >= range.lowerBound, range.upperBound - offset >= size else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + size) {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }

    /// The boxes laid out one after another in `range`; each found box is given as the range of its payload.
    private struct BoxReader {
        let bytes: UnsafeRawBufferPointer
        let range: Range<Int>

        /// The payload of the first box of `type`.
        func first(_ type: String) -> Range<Int>? {
            var found: Range<Int>?
            forEach { boxType, payload in
                guard boxType == type else { return true }
                found = payload
                return false
            }
            return found
        }

        /// The payload of the first track whose handler is `pict` and that isn't an auxiliary (alpha) track of
        /// another: the colour track, the one libavif plays.
        func colourTrack() -> Range<Int>? {
            var found: Range<Int>?
            forEach { type, payload in
                guard type == "trak" else { return true }
                let track = BoxReader(bytes: bytes, range: payload)
                if let media = track.first("mdia"), let handler = BoxReader(bytes: bytes, range: media).first("hdlr"),
                    handler.count >= 12, tag(at: handler.lowerBound + 8) == "pict",
                    track.first("tref").flatMap({ BoxReader(bytes: bytes, range: $0).first("auxl") }) == nil
                {
                    found = payload
                    return false
                }
                return true
            }
            return found
        }

        /// Calls `body` with each box's type and payload range, in order, until it returns `false` or a box
        /// header doesn't fit.
        private func forEach(_ body: (String, Range<Int>) -> Bool) {
            var offset = range.lowerBound
            while range.upperBound - offset >= 8 {
                let size32 = Int(AVIFEditList.read(bytes, at: offset, size: 4, within: range) ?? 0)
                let type = tag(at: offset + 4)
                var headerSize = 8
                var size = size32
                if size32 == 1 {  // A 64-bit size follows the type.
                    guard let large = AVIFEditList.read(bytes, at: offset + 8, size: 8, within: range),
                        large <= UInt64(Int.max)
                    else { return }
                    headerSize = 16
                    size = Int(large)
                } else if size32 == 0 {  // The box runs to the end.
                    size = range.upperBound - offset
                }
                guard size >= headerSize, range.upperBound - offset >= size else { return }
                guard body(type, (offset + headerSize)..<(offset + size)) else { return }
                offset += size
            }
        }

        /// Four bytes as a box type.
        private func tag(at offset: Int) -> String {
            String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
        }
    }
}
