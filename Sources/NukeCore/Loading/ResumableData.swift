import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bytes of an interrupted download and what is needed to resume it with an HTTP range request.
struct ResumableData: Sendable {
    let data: Data
    let validator: String  // An ETag or a Last-Modified date.

    /// Keeps `data` if the server can resume it: `Accept-Ranges: bytes` (or a 206, which proves range support),
    /// a strong validator (from the response, or `previousValidator` for a resumed transfer), a 200 or 206
    /// status, and fewer bytes than the whole resource (`expectedLength`, 0 when unknown).
    ///
    /// The validator must be one a request can carry: Foundation silently drops a header value with a control
    /// character (NUL, CR, LF…), and a range request without its `If-Range` would append the rest of whatever the
    /// resource is now to the bytes of the old one.
    init?(response: URLResponse, data: Data, expectedLength: Int64, previousValidator: String?) {
        guard !data.isEmpty, let response = response as? HTTPURLResponse,
            response.statusCode == 200 || response.statusCode == 206,
            expectedLength <= 0 || Int64(data.count) < expectedLength,
            response.statusCode == 206 || response.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased() == "bytes",
            let validator = response.value(forHTTPHeaderField: "ETag")
                ?? response.value(forHTTPHeaderField: "Last-Modified") ?? previousValidator,
            !validator.hasPrefix("W/"),  // If-Range needs a strong validator.
            Self.isSendable(validator)
        else { return nil }
        self.data = data
        self.validator = validator
    }

    /// `true` if `value` is a non-empty header value with no control character but tab (RFC 9110 field-value).
    private static func isSendable(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// Asks for the rest of the resource, if it is still the same (`If-Range`).
    func resume(_ request: inout URLRequest) {
        request.setValue("bytes=\(data.count)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
    }

    /// `true` if the server answered the range request with the rest of this resource: a 206 whose
    /// `Content-Range` (if present) starts where the kept bytes end.
    func isResumed(by response: URLResponse) -> Bool {
        guard let response = response as? HTTPURLResponse, response.statusCode == 206 else { return false }
        guard let range = response.value(forHTTPHeaderField: "Content-Range") else { return true }
        // "bytes 4-7/8"
        let start = range.lowercased().drop { !$0.isNumber }.prefix { $0.isNumber }
        return Int(start) == data.count
    }
}

/// Interrupted downloads of one pipeline, by data key, within a byte budget (least recently stored dropped).
final class ResumableDataStorage: Sendable {
    private let cache: Cache<DataKey, ResumableData>

    init(costLimit: Int) {
        cache = Cache(costLimit: costLimit, countLimit: 1000)
        cache.entryCostLimit = 1
    }

    func store(_ data: ResumableData, for key: DataKey) {
        cache.set(data, forKey: key, cost: data.data.count)
    }

    func take(for key: DataKey) -> ResumableData? {
        cache.removeValue(forKey: key)
    }
}
