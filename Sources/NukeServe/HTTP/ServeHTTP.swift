public import Foundation

/// One HTTP request as a transport hands it to a ``ServeHandler``: the head only (the service accepts no request
/// bodies).
public struct ServeRequest: Sendable {
    /// The method as sent, e.g. `GET` or `HEAD`.
    public var method: String
    /// The request target's path as received, still percent-encoded, without the query string; starts with `/`.
    public var path: String
    /// The query string without its `?`, if any.
    public var query: String?
    /// The header fields, names lowercased; a field sent several times is joined with `, ` (RFC 9110, 5.3).
    public var headers: [String: String]
    /// The client's address (`192.0.2.1`, `2001:db8::1`), if the transport knows it; for logs only.
    public var remoteAddress: String?

    /// Makes a request; header names are lowercased.
    public init(
        method: String, path: String, query: String? = nil, headers: [String: String] = [:],
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        var lowercased: [String: String] = [:]
        for (name, value) in headers {
            let name = name.lowercased()
            lowercased[name] = lowercased[name].map { "\($0), \(value)" } ?? value
        }
        self.headers = lowercased
        self.remoteAddress = remoteAddress
    }

    /// The value of the header field `name` (any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// The response a ``ServeHandler`` gives a transport to send.
public struct ServeResponse: Sendable {
    /// The status code, e.g. `200`, `304`, `404`.
    public var status: Int
    /// The header fields in the order they are sent. The transport adds `Content-Length` (from ``body``, also for
    /// `HEAD`, whose body it does not send), and `Date` and `Connection` as its HTTP library does; a handler sets
    /// neither `Content-Length` nor `Transfer-Encoding`, except that a `304` may carry the `Content-Length` of the
    /// representation it stands for (RFC 9110, 8.6), which the transport then sends instead of its body's 0.
    public var headers: [(name: String, value: String)]
    /// The body; empty for `304` and for errors without text.
    public var body: Data

    /// Makes a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// What a transport calls for each request: the service, behind any HTTP server library.
///
/// Called concurrently from the transport's threads, once per request, with the request's head; the transport sends
/// the returned response (for `HEAD`, without its body). A handler never throws: every failure is a response with its
/// status.
public protocol ServeHandler: Sendable {
    /// Answers `request`.
    func respond(to request: ServeRequest) async -> ServeResponse
}
