/// The header block of the response being received, kept as the raw lines curl's header callback delivered.
///
/// Each status line (`HTTP/1.1 301 Moved`, `HTTP/2 200`) starts a new block, so after redirects and interim
/// `1xx` responses only the final response's lines remain. Collecting is a byte copy (this runs for every header
/// line of every transfer on the loop thread); ``httpVersion`` and ``fields`` parse the bytes once, when the
/// response is built — and never for a response without a body. Lines are parsed as bytes, and names compared
/// without lowercasing: Foundation's string trimming was a third of the loader's time.
struct CurlResponseHeaders: Sendable {
    /// The lines of the current block, each with its line ending as received.
    private var bytes: [UInt8] = []

    /// Creates an empty block.
    init() {}

    /// Adds one header line; a status line drops the lines of the previous block.
    mutating func append(line: UnsafeBufferPointer<CChar>) {
        let raw = UnsafeRawBufferPointer(line)
        if raw.starts(with: Self.statusPrefix) { bytes.removeAll(keepingCapacity: true) }
        // A typical block is a few hundred bytes: one allocation instead of growing from 16 bytes line by line.
        if bytes.capacity == 0 { bytes.reserveCapacity(512) }
        bytes.append(contentsOf: raw)
        if raw.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    }

    /// `HTTP/1.1`, `HTTP/2`, … from the block's status line: `HTTP/` and up to 8 digits and dots. `HTTP/1.1` when
    /// there is no status line or its version is anything else (a hostile server's bytes don't reach the response).
    var httpVersion: String {
        var version = "HTTP/1.1"
        forEachLine { line in
            guard line.starts(with: Self.statusPrefix) else { return }
            let token = line.prefix { $0 != UInt8(ascii: " ") }.dropFirst(Self.statusPrefix.count)
            guard !token.isEmpty, token.count <= 8,
                token.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") })
            else { return }
            version = "HTTP/" + String(decoding: token, as: UTF8.self)
        }
        return version
    }

    /// The fields; repeated names (compared case-insensitively) are joined with `, ` as Foundation does, under
    /// the spelling of their first occurrence.
    var fields: [String: String] {
        bytes.withUnsafeBytes { raw in
            var lines: [(name: Slice<UnsafeRawBufferPointer>, value: Slice<UnsafeRawBufferPointer>)] = []
            forEachLine(in: raw) { line in
                guard !line.starts(with: Self.statusPrefix), let colon = line.firstIndex(of: UInt8(ascii: ":"))
                else { return }
                let name = Self.trimmed(line[..<colon])
                guard !name.isEmpty else { return }
                lines.append((name, Self.trimmed(line[(colon + 1)...])))
            }
            // A handful of lines is searched for an earlier same name byte by byte (no string is lowercased); a
            // long block goes through a dictionary of lowercased names, so a hostile one costs O(n), not O(n²).
            var fields = [String: String](minimumCapacity: lines.count)
            var canonicalNames: [String: String] = [:]
            for index in lines.indices {
                let (name, value) = lines[index]
                let key: String
                if lines.count <= 32 {
                    let first = lines[..<index].firstIndex { Self.equalIgnoringASCIICase($0.name, name) } ?? index
                    key = String(decoding: lines[first].name, as: UTF8.self)
                } else {
                    let spelled = String(decoding: name, as: UTF8.self)
                    let lowercased = spelled.lowercased()
                    key = canonicalNames[lowercased, default: spelled]
                    canonicalNames[lowercased] = key
                }
                let text = String(decoding: value, as: UTF8.self)
                if let existing = fields[key] {
                    fields[key] = existing + ", " + text
                } else {
                    fields[key] = text
                }
            }
            return fields
        }
    }

    private static let statusPrefix = Array("HTTP/".utf8)

    /// Calls `body` with every non-empty line of the block, trimmed.
    private func forEachLine(_ body: (Slice<UnsafeRawBufferPointer>) -> Void) {
        bytes.withUnsafeBytes { forEachLine(in: $0, body) }
    }

    private func forEachLine(
        in raw: UnsafeRawBufferPointer, _ body: (Slice<UnsafeRawBufferPointer>) -> Void
    ) {
        var start = raw.startIndex
        while start < raw.endIndex {
            let end = raw[start...].firstIndex(of: UInt8(ascii: "\n")) ?? raw.endIndex
            let line = Self.trimmed(raw[start..<end])
            if !line.isEmpty { body(line) }
            start = end + 1
        }
    }

    private static func equalIgnoringASCIICase(
        _ lhs: Slice<UnsafeRawBufferPointer>, _ rhs: Slice<UnsafeRawBufferPointer>
    ) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy {
            $0 == $1 || ($0 | 0x20 == $1 | 0x20 && ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A)
        }
    }

    /// `bytes` without leading and trailing spaces, tabs, CR and LF.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }
}
