import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bytes of an interrupted download and what is needed to resume it with an HTTP range request.
struct ResumableData: Sendable {
    let data: Data
    let validator: String  // An ETag or a Last-Modified date.

    /// Keeps `data` if `response` says the server can resume it: `Accept-Ranges: bytes`, a validator, a
    /// 200 or 206 status, and fewer bytes than announced.
    init?(response: URLResponse, data: Data) {
        guard !data.isEmpty, let response = response as? HTTPURLResponse,
            response.statusCode == 200 || response.statusCode == 206,
            response.expectedContentLength <= 0 || Int64(data.count) < response.expectedContentLength,
            response.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased() == "bytes",
            let validator = response.value(forHTTPHeaderField: "ETag")
                ?? response.value(forHTTPHeaderField: "Last-Modified")
        else { return nil }
        self.data = data
        self.validator = validator
    }

    /// Asks for the rest of the resource, if it is still the same (`If-Range`).
    func resume(_ request: inout URLRequest) {
        request.setValue("bytes=\(data.count)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
    }

    /// `true` if the server answered a range request with the rest of the resource.
    static func isResumedResponse(_ response: URLResponse) -> Bool {
        (response as? HTTPURLResponse)?.statusCode == 206
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
