/// The header block of the response being received, built from curl's header callback lines.
///
/// Each status line (`HTTP/1.1 301 Moved`, `HTTP/2 200`) starts a new block, so after redirects and interim
/// `1xx` responses only the final response's headers remain. Lines are parsed as bytes (this runs for every
/// header of every transfer on the loop thread; Foundation's string trimming was a third of the loader's time).
struct CurlResponseHeaders {
    /// `HTTP/1.1`, `HTTP/2`, … from the last status line.
    private(set) var httpVersion = "HTTP/1.1"
    private var lines: [(name: String, value: String)] = []

    mutating func append(line bytes: UnsafeBufferPointer<CChar>) {
        let raw = UnsafeRawBufferPointer(bytes)
        let line = Self.trimmed(raw[...])
        guard !line.isEmpty else { return }
        if line.starts(with: Self.statusPrefix) {
            let version = line.prefix { $0 != UInt8(ascii: " ") }
            httpVersion = String(decoding: version, as: UTF8.self)
            lines.removeAll(keepingCapacity: true)
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = Self.trimmed(line[..<colon])
            guard !name.isEmpty else { return }
            let value = Self.trimmed(line[(colon + 1)...])
            lines.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
    }

    /// The fields; repeated names (compared case-insensitively) are joined with `, ` as Foundation does.
    var fields: [String: String] {
        var fields: [String: String] = [:]
        fields.reserveCapacity(lines.count)
        var canonicalNames: [String: String] = [:]
        for (name, value) in lines {
            let lowercased = name.lowercased()
            let key = canonicalNames[lowercased, default: name]
            canonicalNames[lowercased] = key
            if let existing = fields[key] {
                fields[key] = existing + ", " + value
            } else {
                fields[key] = value
            }
        }
        return fields
    }

    private static let statusPrefix = Array("HTTP/".utf8)

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
