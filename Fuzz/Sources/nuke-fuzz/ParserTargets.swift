@_spi(Fuzzing) import DecoderJPEG
import Foundation
@_spi(Fuzzing) import LoaderCurl
import LoaderURLSession
@_spi(Fuzzing) import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Swift parsers that read untrusted bytes before (or instead of) a C library.
enum ParserTargets {
    /// Format sniffing, on the bytes and on a MIME type made of them.
    static func assetType(_ data: Data) {
        let type = AssetType(data)
        // Sniffing looks at the first 4 KB only (AssetType's documented limit): they must give the same answer.
        precondition(AssetType(data.prefix(4096)) == type, "sniffing read past its limit")
        if let type { _ = type.mimeType }
        _ = AssetType(mimeType: String(decoding: data.prefix(64), as: UTF8.self))
    }

    /// The JPEG marker walks: the core's (progressive flag, EXIF thumbnail) and the JPEG plugin's (orientation,
    /// completed scans, the 1/8-scale copy).
    static func jpegMarkers(_ data: Data) {
        let scan = NukeCoreFuzzing.scanJPEG(data)
        if let thumbnail = scan.thumbnail {
            precondition(thumbnail.count <= data.count, "the EXIF thumbnail is larger than the file")
        }
        let walk = JPEGFuzzing.walkMarkers(data)
        precondition((1...8).contains(walk.orientation), "orientation \(walk.orientation) out of range")
        precondition(walk.completedScansEnd <= data.count, "completed scans end past the data")
        if let count = walk.oneEighthCount { precondition(count <= data.count, "the 1/8 copy is larger") }
    }

    /// `data:` URLs: the input is the URL text after `data:`.
    static func dataURL(_ data: Data) {
        let text = "data:" + String(decoding: data, as: UTF8.self)
        guard let url = URL(string: text) else { return }
        guard let decoded = try? NukeCoreFuzzing.decodeDataURL(url) else { return }
        precondition(!decoded.mimeType.isEmpty, "empty media type")
        // Percent-decoding and base64 only shrink the text (URL(string:) may have percent-encoded the input).
        precondition(
            decoded.data.count <= url.absoluteString.utf8.count, "a data: URL decoded to more bytes than it has")
    }

    /// Response headers as curl delivers them (one line per `\n` of the input), the response built from them,
    /// the loaders' response check, and the resume decision of an interrupted download over that response.
    static func httpHeaders(_ data: Data) {
        var input = FuzzInput(data)
        let statusCode = 100 + Int(input.byte()) % 500
        let received = 1 + Int(input.byte())  // Bytes of the interrupted download.
        let expectedLength = Int64(input.byte()) * 4 - 1  // -1: unknown.
        let text = input.data
        var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) }
        // The second block (after a blank line) is the response to the range request.
        let blank = lines.firstIndex { $0.isEmpty || $0 == [UInt8(ascii: "\r")] }
        var nextLines: [[UInt8]] = []
        if let blank {
            nextLines = Array(lines[(blank + 1)...])
            lines = Array(lines[..<blank])
        }
        let url = URL(string: "https://example.com/image.jpg")!
        let first = CurlFuzzing.parseResponse(lines: lines, url: url, statusCode: statusCode)
        precondition(first.httpVersion.hasPrefix("HTTP/"), "HTTP version \(first.httpVersion)")
        for (name, value) in first.fields {
            // Names are trimmed and never contain the colon; values keep no line break. (A repeated field with an
            // empty value joins as "a, ", as Foundation's would.)
            precondition(!name.isEmpty && !name.contains(":"), "a malformed field name")
            precondition(name.first != " " && name.last != " ", "an untrimmed field name")
            precondition(!value.utf8.contains(UInt8(ascii: "\n")), "a line break in a field value")
        }
        guard let response = first.response else { return }
        _ = DataLoader.validate(response: response)
        let next = CurlFuzzing.parseResponse(lines: nextLines, url: url, statusCode: 206).response ?? response
        let resume = NukeCoreFuzzing.resume(
            response: response, data: Data(count: received), expectedLength: expectedLength,
            previousValidator: nil, nextResponse: next)
        if let resume {
            precondition(resume.range == "bytes=\(received)-", "Range \(resume.range ?? "nil")")
            precondition(resume.ifRange != nil, "no If-Range")
        }
    }

    /// The HTTP cache's stored entries and headers: the input as an entry read from a disk cache (a miss or the
    /// exact stored body, never other metadata on a second read), and its lines as response headers whose caching
    /// metadata is stored and read back.
    static func httpCache(_ data: Data) {
        let entry = NukeCoreFuzzing.decodeHTTPCacheEntry(data)
        if let body = entry.body { precondition(body.count <= data.count, "an entry's body is larger than the entry") }
        let text = String(decoding: data.prefix(4096), as: UTF8.self)
        var headers: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[String(parts[0])] = String(parts[1]) }
        }
        let url = URL(string: "https://example.com/a.png")!
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else { return }
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let metadata = HTTPCacheMetadata(response: response, requestTime: now, responseTime: now)
        precondition(metadata.freshnessLifetime >= 0, "negative freshness lifetime")
        _ = metadata.decision(at: now.addingTimeInterval(60))
        _ = metadata.updated(with: response, requestTime: now, responseTime: now)
        let body = Data(data.prefix(64))
        let roundTrip = NukeCoreFuzzing.roundTripHTTPCacheEntry(metadata: metadata, body: body)
        precondition(roundTrip.body == body, "the stored body changed")
        precondition(roundTrip.metadata?.etag == metadata.etag, "the stored ETag changed")
        precondition(roundTrip.metadata?.cacheControl == metadata.cacheControl, "the stored directives changed")
    }
}
