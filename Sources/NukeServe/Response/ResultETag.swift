public import Foundation

/// The strong entity tag of a result, and `If-None-Match` matching.
public enum ResultETag {
    /// A strong `ETag` (quoted) derived from the source's identity (its URL), the options in canonical form, the
    /// output format, and a digest of the encoded bytes, so a source that changes under its URL gets a new tag while
    /// equal results get equal tags across instances and restarts.
    public static func make(source: String, options: ProcessingOptions, format: OutputFormat, body: Data) -> String {
        var identity = Array([source, options.canonicalDescription, format.rawValue, ""].joined(separator: "\n").utf8)
        identity += HMACSHA256.sha256([UInt8](body))
        let digest = HMACSHA256.sha256(identity).prefix(16)
        return "\"" + digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
    }

    /// Whether `ifNoneMatch` (the header's value) matches `etag`: `*`, or any listed tag equal to it by the weak
    /// comparison (RFC 9110, 13.1.2: `W/` ignored).
    public static func matches(ifNoneMatch: String, etag: String) -> Bool {
        let value = ifNoneMatch.trimmingCharacters(in: .whitespaces)
        if value == "*" { return true }
        func opaque(_ tag: Substring) -> Substring {
            let trimmed = tag.drop { $0 == " " || $0 == "\t" }
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
        }
        let own = opaque(Substring(etag))
        return value.split(separator: ",").contains { opaque($0).trimmingSuffix() == own }
    }
}

extension Substring {
    fileprivate func trimmingSuffix() -> Substring {
        var result = self
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
