import Foundation

/// The strong entity tag of a result, and `If-None-Match` matching.
public enum ResultETag {
    /// A strong `ETag` (quoted) derived from what decides the result's bytes: the source URL, the source's own
    /// validator when the origin sent one (its `ETag`, else `Last-Modified`), the options in canonical form and the
    /// output format. Equal inputs give equal tags, across instances and restarts.
    public static func make(
        source: String, sourceValidator: String?, options: ProcessingOptions, format: OutputFormat
    ) -> String {
        let identity = [source, sourceValidator ?? "", options.canonicalDescription, format.rawValue]
            .joined(separator: "\n")
        let digest = HMACSHA256.sha256(Array(identity.utf8)).prefix(16)
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
