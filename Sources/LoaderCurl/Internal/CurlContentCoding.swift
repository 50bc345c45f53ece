internal import CCurlShim
internal import CLibCurl

/// The codings of a response body libcurl decodes, and whether a header line names one it doesn't.
///
/// curl fails a transfer whose `Content-Encoding` (when it was asked to decode, `CURLOPT_ACCEPT_ENCODING`) or
/// `Transfer-Encoding` names a coding it doesn't know (`CURLE_BAD_CONTENT_ENCODING`, 61). A browser hands such a
/// body over as it came, and so does the loader: the transfer's header callback turns curl's decoding off
/// (`CURLOPT_HTTP_CONTENT_DECODING`) when a line names an unknown coding, so curl decodes only what it knows and
/// delivers the rest raw, with the header as sent. libcurl 7.x (Debian 12's 7.88) reads the option when the body
/// arrives, after the header callback.
enum CurlContentCoding {
    /// The codings this libcurl decodes: `identity`, `gzip` (`x-gzip`), `deflate`, and `br` and `zstd` when it was
    /// built with them; `chunked` too for `Transfer-Encoding`.
    static let decodable: Set<String> = {
        var codings: Set<String> = ["identity", "gzip", "x-gzip", "deflate"]
        let features = curl_version_info(CCurlShim_VERSION_NOW)?.pointee.features ?? 0
        if features & (1 << 23) != 0 { codings.insert("br") }  // CURL_VERSION_BROTLI
        if features & (1 << 26) != 0 { codings.insert("zstd") }  // CURL_VERSION_ZSTD
        return codings
    }()

    /// Whether `line` is a `Content-Encoding` or `Transfer-Encoding` field that names a coding outside `decodable`
    /// (compared case-insensitively; `chunked` is known for `Transfer-Encoding`).
    static func namesUnknownCoding(_ line: UnsafeRawBufferPointer, decodable: Set<String> = decodable) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        let isTransfer = name == "transfer-encoding"
        guard isTransfer || name == "content-encoding" else { return false }
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
        return value.split(separator: ",").contains { element in
            let coding = element.trimmingCharacters(in: " \t\r\n").lowercased()
            return !coding.isEmpty && !decodable.contains(coding) && !(isTransfer && coding == "chunked")
        }
    }
}

extension StringProtocol {
    /// The text without the given leading and trailing characters.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        guard let start = firstIndex(where: { !set.contains($0) }), let end = lastIndex(where: { !set.contains($0) })
        else { return "" }
        return String(self[start...end])
    }
}
