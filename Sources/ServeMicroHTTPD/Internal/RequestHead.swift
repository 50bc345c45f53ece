import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import NukeServe

/// Reads a request's head from libmicrohttpd into a `ServeRequest` and decides whether the transport refuses it
/// before the handler sees it.
enum RequestHead {
    /// The head of `context`'s request on `connection`, its size in bytes as sent (approximately: the request line
    /// and each field with its separators), and whether a body follows.
    static func read(
        _ context: RequestContext, method: String, version: String, connection: OpaquePointer
    ) -> (request: ServeRequest, size: Int, hasBody: Bool) {
        let collector = HeaderCollector()
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND, collectHeader, Unmanaged.passUnretained(collector).toOpaque())
        }
        var size = method.utf8.count + context.target.utf8.count + version.utf8.count + 4
        var headers: [String: String] = [:]
        for (name, value) in collector.fields {
            size += name.utf8.count + value.utf8.count + 4
            let name = name.lowercased()
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        let (path, query) = split(target: context.target)
        let length = headers["content-length"]?.trimmingCharacters(in: .whitespaces)
        let hasBody = headers["transfer-encoding"] != nil || (length != nil && length != "0")
        let request = ServeRequest(
            method: method, path: path, query: query, headers: headers,
            remoteAddress: clientAddress(of: connection))
        return (request, size + 2, hasBody)
    }

    /// The response the transport sends instead of calling the handler, if any: `405` for methods other than GET
    /// and HEAD, `413` for a request with a body, `431` for a head larger than `maximumHeadBytes`.
    static func refusal(method: String, size: Int, hasBody: Bool, maximumHeadBytes: Int) -> ServeResponse? {
        if method != "GET" && method != "HEAD" {
            return TransportResponse.methodNotAllowed
        }
        if hasBody {
            return TransportResponse.contentTooLarge
        }
        if size > maximumHeadBytes {
            return TransportResponse.headTooLarge
        }
        return nil
    }

    /// Splits a request target into its path and query (without the `?`). An absolute-form target
    /// (`http://host/a?b`) keeps only its path.
    static func split(target: String) -> (path: String, query: String?) {
        var rest = Substring(target)
        if !rest.hasPrefix("/"), let scheme = rest.range(of: "://") {
            let authorityAndPath = rest[scheme.upperBound...]
            rest = authorityAndPath.firstIndex(where: { $0 == "/" || $0 == "?" }).map { authorityAndPath[$0...] } ?? ""
            if !rest.hasPrefix("/") { rest = "/" + rest }
        }
        guard let mark = rest.firstIndex(of: "?") else { return (String(rest), nil) }
        return (String(rest[..<mark]), String(rest[rest.index(after: mark)...]))
    }

    private static func clientAddress(of connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        guard CMicroHTTPDShim_client_address(connection, &buffer, buffer.count) else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Collects the header fields in the order they were sent; used only on the calling thread.
private final class HeaderCollector {
    var fields: [(name: String, value: String)] = []
}

private let collectHeader: MHD_KeyValueIterator = { context, _, name, value in
    guard let context, let name else { return .YES }
    let collector = Unmanaged<HeaderCollector>.fromOpaque(context).takeUnretainedValue()
    collector.fields.append((String(cString: name), value.map { String(cString: $0) } ?? ""))
    return .YES
}
