public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Entry points into the core's internal parsers for the fuzz targets of `Fuzz/`, which import the core with
/// `@_spi(Fuzzing) import NukeCore`. Each one runs the internal code unchanged on untrusted input; none is API
/// (no stability promise, not for apps).
@_spi(Fuzzing)
public enum NukeCoreFuzzing {
    /// A disk cache entry as the HTTP cache reads it: its body (`nil` when damaged or a stored error status) and
    /// metadata (`nil` for a plain entry).
    public static func decodeHTTPCacheEntry(_ data: Data) -> (body: Data?, metadata: HTTPCacheMetadata?) {
        let entry = HTTPCacheEntry(decoding: data)
        return (entry.body, entry.metadata)
    }

    /// An original stored with `metadata` and read back.
    public static func roundTripHTTPCacheEntry(
        metadata: HTTPCacheMetadata, body: Data
    ) -> (body: Data?, metadata: HTTPCacheMetadata?) {
        decodeHTTPCacheEntry(HTTPCacheEntry.original(metadata, body: body).encoded())
    }

    /// What `JPEGScan` reads from `data`: whether the frame is progressive, and the EXIF thumbnail if one is
    /// complete (`pending` when the headers that could hold it haven't all arrived).
    public static func scanJPEG(_ data: Data) -> (isProgressive: Bool, thumbnail: Data?, isPending: Bool) {
        let isProgressive = JPEGScan.isProgressive(data)
        switch JPEGScan.exifThumbnail(data) {
        case .found(let thumbnail): return (isProgressive, thumbnail, false)
        case .pending: return (isProgressive, nil, true)
        case .absent: return (isProgressive, nil, false)
        }
    }

    /// The bytes and media type of a `data:` URL, as ``LocalDataLoader`` decodes them.
    public static func decodeDataURL(_ url: URL) throws -> (data: Data, mimeType: String) {
        try LocalDataLoader.decodeDataURL(url)
    }

    /// The resume decision of an interrupted download: `nil` if `data` can't be resumed after `response`;
    /// otherwise the `Range` and `If-Range` header values of the resuming request, and whether `nextResponse`
    /// resumes it.
    public static func resume(
        response: URLResponse, data: Data, expectedLength: Int64, previousValidator: String?,
        nextResponse: URLResponse
    ) -> (range: String?, ifRange: String?, isResumed: Bool)? {
        guard
            let resumable = ResumableData(
                response: response, data: data, expectedLength: expectedLength, previousValidator: previousValidator)
        else { return nil }
        var request = URLRequest(url: response.url ?? URL(fileURLWithPath: "/"))
        resumable.resume(&request)
        return (
            request.value(forHTTPHeaderField: "Range"), request.value(forHTTPHeaderField: "If-Range"),
            resumable.isResumed(by: nextResponse)
        )
    }
}
