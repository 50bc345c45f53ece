public import Foundation

extension LoopbackHTTPServer {
    /// What the server does for requests to one path: a well-behaved response or a scripted fault.
    ///
    /// Unless a route says otherwise, responses carry `Content-Length`, keep the connection alive (unless the
    /// request asked to close it) and answer `HEAD` without a body.
    public struct Route: Sendable {
        enum Kind: Sendable {
            case data(Data, status: Int, headers: [String: String])
            case chunked([Data], delay: Duration?, headers: [String: String])
            case written(Data, pieceSize: Int, delay: Duration?)
            case contentLengthMismatch(Data, declaredLength: Int)
            case drop(Data, after: Int)
            case stall(prefix: Data?, declaredLength: Int?)
            case redirect(location: String, status: Int)
            case encoded(Data, encoding: ContentEncoding, headers: [String: String])
            case resource(Data, etag: String, dropAfter: Int?, headers: [String: String])
            case pattern(size: Int?)
            case garbage(Data)
            case handler(@Sendable (RecordedRequest) -> Route)
        }

        enum ContentEncoding: String, Sendable {
            case gzip, deflate
        }

        let kind: Kind

        /// `body` with `status` and `headers`, and a correct `Content-Length`.
        public static func data(_ body: Data, status: Int = 200, headers: [String: String] = [:]) -> Route {
            Route(kind: .data(body, status: status, headers: headers))
        }

        /// `status` (404, 500, …) with a short text body.
        public static func status(_ status: Int, body: Data? = nil) -> Route {
            let text = body ?? Data("status \(status)\n".utf8)
            return Route(kind: .data(text, status: status, headers: ["Content-Type": "text/plain"]))
        }

        /// A `Transfer-Encoding: chunked` body, one HTTP chunk per element (empty elements are skipped). With
        /// `delay`, the server waits that long before each chunk after the first ("slow chunks").
        public static func chunked(
            _ chunks: [Data], delay: Duration? = nil, headers: [String: String] = [:]
        )
            -> Route
        {
            Route(kind: .chunked(chunks.filter { !$0.isEmpty }, delay: delay, headers: headers))
        }

        /// `body` with a correct `Content-Length`, written `pieceSize` bytes at a time (the last piece may be
        /// shorter); with `delay`, the server waits that long before each piece after the first. A body that
        /// arrives in many writes, as from a server that streams it.
        public static func data(_ body: Data, inWritesOf pieceSize: Int, delay: Duration? = nil) -> Route {
            Route(kind: .written(body, pieceSize: max(1, pieceSize), delay: delay))
        }

        /// A `Content-Length` lie: announces `declaredLength` but sends `body`, then closes the connection. A
        /// longer declaration makes the body end early; a shorter one sends more than announced.
        public static func contentLengthMismatch(body: Data, declaredLength: Int) -> Route {
            Route(kind: .contentLengthMismatch(body, declaredLength: declaredLength))
        }

        /// Announces all of `body`, sends its first `byteCount` bytes, then closes the connection ("drop
        /// mid-body").
        public static func drop(_ body: Data, after byteCount: Int) -> Route {
            Route(kind: .drop(body, after: max(0, min(byteCount, body.count))))
        }

        /// Reads the request and never answers (until the client leaves or the server shuts down).
        public static let stall = Route(kind: .stall(prefix: nil, declaredLength: nil))

        /// Sends the response head (announcing `declaredLength`, or `prefix.count + 1` if `nil`) and `prefix`,
        /// then stalls forever.
        public static func stall(afterSending prefix: Data, declaredLength: Int? = nil) -> Route {
            Route(kind: .stall(prefix: prefix, declaredLength: declaredLength ?? prefix.count + 1))
        }

        /// A redirect (`301`, `302`, `307`, `308`, …) to `location`, absolute or relative. Chain routes to build
        /// redirect chains, or point two at each other for a loop.
        public static func redirect(to location: String, status: Int = 302) -> Route {
            Route(kind: .redirect(location: location, status: status))
        }

        /// `body` sent with `Content-Encoding: gzip` (whatever the request's `Accept-Encoding`). The gzip stream
        /// uses stored (uncompressed) deflate blocks: valid for every decoder, no zlib needed.
        public static func gzip(_ body: Data, headers: [String: String] = [:]) -> Route {
            Route(kind: .encoded(body, encoding: .gzip, headers: headers))
        }

        /// `body` sent with `Content-Encoding: deflate` (a zlib stream, RFC 1950, of stored blocks).
        public static func deflate(_ body: Data, headers: [String: String] = [:]) -> Route {
            Route(kind: .encoded(body, encoding: .deflate, headers: headers))
        }

        /// A resource that supports resumption: `ETag` and `Accept-Ranges: bytes` on every response; a
        /// `Range: bytes=a-`/`a-b` request is answered with `206` and `Content-Range` (or `416` when out of
        /// range), unless it carries an `If-Range` that doesn't match `etag`, which gets the full `200`. With
        /// `dropAfter`, responses that start at byte 0 close the connection after that many body bytes (a
        /// download dropped part-way, to be resumed).
        public static func resource(
            _ body: Data, etag: String, dropAfter: Int? = nil, headers: [String: String] = [:]
        ) -> Route {
            Route(kind: .resource(body, etag: etag, dropAfter: dropAfter, headers: headers))
        }

        /// A body of ``FixturePattern`` bytes streamed in 64 KB blocks without buffering, so it may be
        /// arbitrarily large. The size is `size`, or the request's `size` query item; the body starts at the
        /// pattern offset given by the `start` query item (default 0), so different URLs get different bodies:
        /// `/pattern?size=1000&start=7` → `FixturePattern.bytes(in: 7..<1007)`.
        public static func pattern(size: Int? = nil) -> Route {
            Route(kind: .pattern(size: size))
        }

        /// Writes `bytes` instead of an HTTP response, then closes the connection.
        public static func garbage(_ bytes: Data) -> Route {
            Route(kind: .garbage(bytes))
        }

        /// Decides per request; `route` runs on a server thread and returns the route to apply.
        public static func handler(_ route: @escaping @Sendable (RecordedRequest) -> Route) -> Route {
            Route(kind: .handler(route))
        }
    }
}
