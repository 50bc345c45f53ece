import Foundation

/// Turns a command-line input into a URL: `http:`, `https:`, `file:` and `data:` URLs are taken as they are;
/// anything else is a local path (relative to the current directory), made a `file:` URL.
enum Inputs {
    /// The URL for `input`.
    ///
    /// - Throws: ``UsageError`` for an empty input or a URL with an unsupported scheme.
    static func url(for input: String) throws -> URL {
        guard !input.isEmpty else { throw UsageError("empty input") }
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let path = URL(fileURLWithPath: input, relativeTo: base).standardizedFileURL
        if FileManager.default.fileExists(atPath: path.path) { return path }
        if let colon = input.firstIndex(of: ":"), input[..<colon].allSatisfy({ $0.isLetter }),
            colon != input.startIndex,
            input[..<colon].count > 1
        {
            let scheme = input[..<colon].lowercased()
            guard ["http", "https", "file", "data"].contains(scheme) else {
                throw UsageError("unsupported URL scheme '\(scheme)' (use http, https, file, data or a path)")
            }
            guard let url = URL(string: input), url.scheme != nil else {
                throw UsageError("not a valid URL")
            }
            return url
        }
        return path
    }
}

/// Output file names of `nuke fetch`: `NAME-HASH.EXT`.
///
/// - NAME: the URL's last path component without its extension; characters other than ASCII letters, digits,
///   `-` and `_` become `_`; at most 40 characters; `image` if nothing is left (`data:` URLs, `/`).
/// - HASH: the first 8 hex digits of the 64-bit FNV-1a hash of the URL's absolute string, so two URLs with the
///   same file name never collide and the same URL always gets the same name.
/// - EXT: `png`, `jpg`, `webp`, `avif` or `jxl`, from `--format`.
enum OutputName {
    static func make(for url: URL, extension fileExtension: String) -> String {
        "\(stem(of: url))-\(hash(url.absoluteString)).\(fileExtension)"
    }

    static func stem(of url: URL) -> String {
        let component = url.scheme == "data" ? "" : url.deletingPathExtension().lastPathComponent
        let cleaned = String(
            component.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
                    ? Character(scalar) : "_"
            }
        ).prefix(40)
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "_" }) ? "image" : String(cleaned)
    }

    /// The first 8 hex digits of the FNV-1a 64-bit hash of `text`'s UTF-8 bytes.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(8))
    }
}
