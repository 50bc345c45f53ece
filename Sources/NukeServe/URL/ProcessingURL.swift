import Foundation

/// A request path in imgproxy's URL format, parsed:
///
/// ```
/// /<signature>/<option>/<option>…/plain/<percent-encoded source URL>[@<extension>]
/// /<signature>/<option>/<option>…/<URL-safe base64 of the source URL, may be split by />[.<extension>]
/// ```
///
/// An option is `name:arg1:arg2…` (see ``ProcessingOptions/apply(_:)``); the extension, when present, sets the output
/// format and wins over a `format` option.
public struct ProcessingURL: Sendable, Hashable {
    /// The first segment: the signature, or anything (`unsafe`, `insecure`, `_`) when signing is off.
    public var signature: String
    /// The path after the signature as received (percent-encoded), from its `/`: what a signature is computed over.
    public var signedPath: String
    /// The options, applied in order.
    public var options: ProcessingOptions
    /// The source URL, decoded: `http(s)://…` or `local:///…`.
    public var source: String

    /// Parses `path` (the request's path, still percent-encoded, without the query).
    ///
    /// - Throws: ``ServeError/Kind/badRequest`` naming what is wrong: no signature or source segment, an unknown
    ///   option or argument, an extension that names no format, a source that isn't valid percent-encoding or
    ///   base64 or UTF-8.
    public init(path: String) throws(ServeError) {
        guard path.hasPrefix("/") else { throw ServeError(.badRequest, "the path must start with /") }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2, !segments[0].isEmpty else {
            throw ServeError(.badRequest, "expected /<signature>/<options>/<source>")
        }
        signature = String(segments[0])
        signedPath = "/" + segments.dropFirst().joined(separator: "/")
        options = ProcessingOptions()

        var index = 1
        var encodedSource: String?
        var isPlain = false
        while index < segments.count {
            let segment = segments[index]
            if segment == "plain" {
                isPlain = true
                encodedSource = segments[(index + 1)...].joined(separator: "/")
                break
            }
            if segment.contains(":") {
                try options.apply(segment)
                index += 1
                continue
            }
            encodedSource = segments[index...].joined()
            break
        }
        guard var encoded = encodedSource, !encoded.isEmpty else {
            throw ServeError(.badRequest, "no source URL after the options")
        }

        var fileExtension: String?
        if isPlain {
            // `@` before the last `/` belongs to the URL (user info); after it, it starts the extension.
            if let at = encoded.lastIndex(of: "@"), !encoded[at...].contains("/") {
                fileExtension = String(encoded[encoded.index(after: at)...])
                encoded = String(encoded[..<at])
            }
            guard let decoded = encoded.removingPercentEncoding else {
                throw ServeError(.badRequest, "the plain source URL is not valid percent-encoding")
            }
            source = decoded
        } else {
            if let dot = encoded.lastIndex(of: ".") {
                fileExtension = String(encoded[encoded.index(after: dot)...])
                encoded = String(encoded[..<dot])
            }
            guard let bytes = Base64URL.decode(encoded), let decoded = String(bytes: bytes, encoding: .utf8) else {
                throw ServeError(.badRequest, "the source URL is not URL-safe base64 of UTF-8 text")
            }
            source = decoded
        }
        guard !source.isEmpty else { throw ServeError(.badRequest, "the source URL is empty") }
        if let fileExtension, !fileExtension.isEmpty {
            guard let format = OutputFormat(extension: fileExtension) else {
                throw ServeError(
                    .badRequest, "unknown extension '\(fileExtension)' (\(OutputFormat.namesForMessages))")
            }
            options.format = format
        }
    }
}

/// URL-safe base64 (RFC 4648, section 5) without padding, as imgproxy's URLs and signatures use it.
public enum Base64URL {
    /// Encodes `bytes` with `-` and `_` for `+` and `/`, and no `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes URL-safe base64 with or without padding (standard `+` and `/` are accepted too); `nil` if `text` is
    /// not base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.hasSuffix("=") { standard.removeLast() }
        guard standard.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
