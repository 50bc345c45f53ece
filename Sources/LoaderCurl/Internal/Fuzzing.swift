public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Entry points into the curl loader's response parsing for the fuzz targets of `Fuzz/` (`@_spi(Fuzzing) import
/// LoaderCurl`). They run the internal code unchanged on untrusted bytes; none is API.
@_spi(Fuzzing)
public enum CurlFuzzing {
    /// The response the loader builds from raw header lines as curl's header callback delivers them (each
    /// element one line, with or without its line ending): the final block's HTTP version and fields, and the
    /// `HTTPURLResponse` made from them (`nil` where Foundation refuses it).
    public static func parseResponse(
        lines: [[UInt8]], url: URL, statusCode: Int
    ) -> (httpVersion: String, fields: [String: String], response: HTTPURLResponse?) {
        var headers = CurlResponseHeaders()
        for line in lines {
            line.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { headers.append(line: $0) }
        }
        let parts = CurlResponseParts(id: 0, url: url, statusCode: statusCode, headers: headers)
        return (headers.httpVersion, headers.fields, parts.makeResponse())
    }
}
