import Foundation
import NukeServe

/// The responses the transport itself sends, without calling the handler.
enum TransportResponse {
    static let methodNotAllowed = text(405, "Method Not Allowed: only GET and HEAD are served", allow: true)
    static let contentTooLarge = text(413, "Content Too Large: requests with a body are not accepted")
    static let headTooLarge = text(431, "Request Header Fields Too Large")
    static let shuttingDown = text(503, "Service Unavailable: the server is shutting down")
    /// Sent instead of a handler's response whose status is not a final three-digit status (200-999).
    static let invalidStatus = text(500, "Internal Server Error: the handler answered with an invalid status")

    private static func text(_ status: Int, _ message: String, allow: Bool = false) -> ServeResponse {
        var headers = [(name: "Content-Type", value: "text/plain; charset=utf-8")]
        if allow { headers.append((name: "Allow", value: "GET, HEAD")) }
        return ServeResponse(status: status, headers: headers, body: Data((message + "\n").utf8))
    }
}
