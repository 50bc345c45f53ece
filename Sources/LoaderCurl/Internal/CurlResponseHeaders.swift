import Foundation

/// The header block of the response being received, built from curl's header callback lines.
///
/// Each status line (`HTTP/1.1 301 Moved`, `HTTP/2 200`) starts a new block, so after redirects and interim
/// `1xx` responses only the final response's headers remain.
struct CurlResponseHeaders {
    /// `HTTP/1.1`, `HTTP/2`, … from the last status line.
    private(set) var httpVersion = "HTTP/1.1"
    private var lines: [(name: String, value: String)] = []

    mutating func append(line bytes: UnsafeBufferPointer<CChar>) {
        let line = String(decoding: UnsafeRawBufferPointer(bytes), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            httpVersion = line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "HTTP/1.1"
            lines.removeAll()
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return }
            lines.append((name, value))
        }
    }

    /// The fields; repeated names are joined with `, ` (as Foundation does).
    var fields: [String: String] {
        var fields: [String: String] = [:]
        var canonicalNames: [String: String] = [:]
        for (name, value) in lines {
            let key = canonicalNames[name.lowercased(), default: name]
            canonicalNames[name.lowercased()] = key
            if let existing = fields[key] {
                fields[key] = existing + ", " + value
            } else {
                fields[key] = value
            }
        }
        return fields
    }
}
