import NukeCore
public import Foundation

/// An HTTP/1.1 server on `127.0.0.1` at a port the kernel picks, with scripted routes and fault injection, for
/// testing loaders against real sockets without the internet.
///
/// ```swift
/// let server = try LoopbackHTTPServer(routes: [
///     "/image.png": .data(pngData, headers: ["Content-Type": "image/png"]),
///     "/slow": .chunked(chunks, delay: .milliseconds(50)),
///     "/stall": .stall,
/// ])
/// defer { server.shutdown() }
/// let url = server.url("/image.png")
/// // … load it, then:
/// #expect(server.requests(for: "/image.png").count == 1)
/// ```
///
/// Each connection is served on its own thread with plain POSIX sockets; connections are kept alive between
/// requests. Paths without a route get `404`. Every request is logged (``requests``) and counted
/// (``statistics``); ``waitUntil(_:timeout:_:)`` suspends until the counters satisfy a condition, without
/// polling. ``shutdown()`` (also run by `deinit`) closes every connection — stalled ones included — and
/// returns once all server threads have exited. Thread-safe.
public final class LoopbackHTTPServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    private let core: ServerCore

    /// Why a wait on the server ended without its condition being met.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The condition didn't hold within the timeout; the statistics when it expired.
        case timedOut(String, Statistics)
        /// The server shut down while waiting.
        case shutDown

        public var description: String {
            switch self {
            case let .timedOut(what, statistics): "Timed out waiting for \(what); server statistics: \(statistics)"
            case .shutDown: "The server shut down while waiting"
            }
        }
    }

    /// Starts a server with `routes` (path → route; the path excludes the query string).
    ///
    /// - Throws: If the listening socket can't be set up.
    public convenience init(routes: [String: Route] = [:]) throws {
        try self.init(routes: routes, host: .primary)
    }

    /// A loopback address to listen on: every `127.x.y.z` reaches this machine, so a server on `127.0.0.2` is a
    /// second host for tests of address policies.
    public enum LoopbackHost: UInt8, Sendable {
        /// `127.0.0.1`.
        case primary = 1
        /// `127.0.0.2`.
        case secondary = 2

        /// The address as text.
        public var address: String { "127.0.0.\(rawValue)" }
    }

    /// Starts a server with `routes` on `host` (see ``init(routes:)``), at `port` — for a second server on the same
    /// port of another loopback address — or at a port the kernel picks when it is 0.
    ///
    /// - Throws: If the listening socket can't be set up (the port is taken, for one).
    public init(routes: [String: Route] = [:], host: LoopbackHost, port: Int = 0) throws {
        guard let requested = UInt16(exactly: port) else { throw Socket.Failure(call: "bind", code: EINVAL) }
        let (fd, port) = try Socket.listenOnLoopback(lastOctet: host.rawValue, port: requested)
        self.host = host
        self.port = port
        core = try ServerCore(listenFD: fd, routes: routes)
        core.start()
    }

    deinit {
        core.shutdown()
    }

    /// The loopback address the server listens on.
    public let host: LoopbackHost

    /// `http://127.0.0.1:<port>` (or the server's other loopback address).
    public var baseURL: URL { URL(string: "http://\(host.address):\(port)")! }

    /// The URL of `pathAndQuery` (which starts with `/`) on this server.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://\(host.address):\(port)\(pathAndQuery)")!
    }

    /// Sets (or with `nil`, removes) the route for `path`; applies to requests received from now on.
    public func setRoute(_ route: Route?, for path: String) {
        core.state.withLock { $0.routes[path] = route }
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] {
        core.state.withLock { $0.requests }
    }

    /// The requests received so far for `path` (the query is ignored).
    public func requests(for path: String) -> [RecordedRequest] {
        requests.filter { $0.path == path }
    }

    /// The counters so far.
    public var statistics: Statistics {
        core.state.withLock { $0.statistics }
    }

    /// How long the waits below wait by default: 120 seconds.
    public static let defaultTimeout: Duration = .seconds(120)

    /// Suspends until `condition` holds for the server's ``statistics`` — checked now and after every change —
    /// or `timeout` passes. `condition` runs under the server's lock: it must not call the server.
    ///
    /// The default timeout (``defaultTimeout``) is generous on purpose: a whole test suite running in parallel on
    /// a small machine can keep the client from reaching the server for tens of seconds, and a wait that times
    /// out early reports a hang that isn't one.
    ///
    /// - Throws: ``Error/timedOut(_:_:)`` naming `what`, or ``Error/shutDown``.
    public func waitUntil(
        _ what: String, timeout: Duration = LoopbackHTTPServer.defaultTimeout,
        _ condition: @escaping @Sendable (Statistics) -> Bool
    ) async throws {
        try await core.waitUntil(what, timeout: timeout, condition)
    }

    /// Suspends until at least `count` requests have arrived (see ``waitUntil(_:timeout:_:)``).
    public func waitForRequests(count: Int, timeout: Duration = LoopbackHTTPServer.defaultTimeout) async throws {
        try await waitUntil("\(count) requests", timeout: timeout) { $0.requestCount >= count }
    }

    /// Suspends until no connection is open, i.e. every client closed its sockets (see
    /// ``waitUntil(_:timeout:_:)``).
    public func waitForAllConnectionsToClose(timeout: Duration = LoopbackHTTPServer.defaultTimeout) async throws {
        try await waitUntil("all connections to close", timeout: timeout) { $0.openConnections == 0 }
    }

    /// Closes the listening socket and every connection, wakes stalled responses, and returns once every
    /// server thread has exited. Pending waits fail with ``Error/shutDown``. Idempotent.
    public func shutdown() {
        core.shutdown()
    }
}
