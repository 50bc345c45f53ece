import CMicroHTTPD
import CMicroHTTPDShim
public import Foundation
public import NukeServe

/// An HTTP/1.1 server on libmicrohttpd that answers every request with a `ServeHandler`: `nuke serve`'s transport.
///
/// ```swift
/// var configuration = MicroHTTPDServer.Configuration()
/// configuration.port = 8080
/// let server = try MicroHTTPDServer(configuration: configuration, handler: service)
/// // …
/// await server.shutdown(grace: 10)
/// ```
///
/// ## Contract
/// - The initializer binds, listens and starts serving before it returns; it throws a ``MicroHTTPDServerError``
///   naming the cause when it cannot.
/// - libmicrohttpd's worker threads (``Configuration/workerThreads``, each with its own epoll set) read requests and
///   write responses. For each request the connection is suspended and the handler runs in a Swift task, so a slow
///   handler holds no thread; its response resumes the connection.
/// - The handler sees only `GET` and `HEAD` requests without a body, with a head of at most
///   ``Configuration/maximumRequestHeadBytes``. The transport answers other methods `405` (with `Allow: GET, HEAD`),
///   requests with a body `413` and larger heads `431` itself.
/// - `ServeRequest` carries the method, the path as sent (percent-encoded, without the query), the query without
///   its `?`, the header fields with lowercased names (a field sent several times joined with `, ` in the order
///   sent) and the client's address.
/// - Responses get `Content-Length` from their body (a handler's own `Content-Length` and `Transfer-Encoding` are
///   dropped), except a `304`, which announces the handler's `Content-Length`: the length of the representation it
///   stands for; a `HEAD` response has the headers of the `GET` one and no body. A status outside 200–999 becomes a
///   `500`; a header field libmicrohttpd refuses (for example a value with a line break) is left out.
/// - Thread-safe: ``shutdown(grace:)`` may be called from any task, any number of times.
public final class MicroHTTPDServer: Sendable {
    /// The configuration the server was started with.
    public let configuration: Configuration

    /// The port the server listens on: the configured one, or the one chosen when the configuration asked for `0`.
    public let port: UInt16

    private let core: MicroHTTPDCore

    /// Starts listening on ``Configuration/address`` and ``Configuration/port`` and serving requests with `handler`.
    ///
    /// - Throws: ``MicroHTTPDServerError``: ``MicroHTTPDServerError/invalidAddress(_:)`` for an address that is not an
    ///   IP literal, ``MicroHTTPDServerError/addressInUse(address:port:)`` when the port is taken,
    ///   ``MicroHTTPDServerError/invalidConfiguration(_:)`` for a limit out of range, and the other cases for other
    ///   failures of the socket calls or of libmicrohttpd.
    public init(
        configuration: Configuration = Configuration(), handler: any ServeHandler
    )
        throws(MicroHTTPDServerError)
    {
        guard configuration.workerThreads >= 1, configuration.workerThreads <= 1024 else {
            throw .invalidConfiguration("workerThreads must be between 1 and 1024")
        }
        guard configuration.maximumConnections >= configuration.workerThreads,
            configuration.maximumConnections <= 1_000_000
        else {
            throw .invalidConfiguration("maximumConnections must be between workerThreads and 1,000,000")
        }
        guard configuration.connectionTimeout >= 0, configuration.connectionTimeout <= 86_400 * 365 else {
            throw .invalidConfiguration("connectionTimeout must be between 0 and one year")
        }
        guard configuration.maximumRequestHeadBytes >= 1024, configuration.maximumRequestHeadBytes <= 16 << 20
        else {
            throw .invalidConfiguration("maximumRequestHeadBytes must be between 1,024 and 16 MiB")
        }
        let socket = try ListeningSocket(address: configuration.address, port: configuration.port)
        let acceptor = Acceptor(socket: socket, limit: configuration.maximumConnections)
        let core = MicroHTTPDCore(
            handler: handler, maximumHeadBytes: configuration.maximumRequestHeadBytes, acceptor: acceptor)
        // libmicrohttpd parses the head in its per-connection memory pool, which also holds the response's head:
        // room for twice the largest accepted head, so that heads up to the limit reach the check that answers 431.
        let memoryLimit = configuration.maximumRequestHeadBytes * 2 + 16 * 1024
        // The acceptor keeps to maximumConnections; libmicrohttpd splits its own limit evenly among the workers, so
        // it gets room for all of them on any one worker and never refuses a connection the acceptor took.
        let workerLimit = min(
            configuration.maximumConnections * configuration.workerThreads, Int(UInt32.max))
        let daemon = CMicroHTTPDShim_start_daemon(
            UInt32(configuration.workerThreads), UInt32(workerLimit),
            UInt32(configuration.connectionTimeout.rounded(.up)), memoryLimit,
            Callbacks.requestStarted, Callbacks.access, Callbacks.requestCompleted, Callbacks.connectionNotify,
            Unmanaged.passUnretained(core).toOpaque())
        guard let daemon else {
            acceptor.stop()
            throw .daemonFailed
        }
        core.state.withLock { $0.daemon = daemon }
        acceptor.start(daemon: daemon)
        self.configuration = configuration
        self.port = socket.port
        self.core = core
    }

    /// Stops the server gracefully and returns when it is stopped.
    ///
    /// New connections are refused at once (the listening socket is shut down). Requests in flight — their handlers
    /// running, or their responses being sent — get up to `grace` seconds to finish; responses sent meanwhile carry
    /// `Connection: close`. Then requests whose handler still runs are answered `503`, every connection is closed,
    /// libmicrohttpd's threads are joined and every descriptor is closed. A handler that finishes later is ignored.
    ///
    /// Idempotent: a call while another is in progress returns when that one is done; a later call returns at once.
    /// `deinit` stops the server the same way with no grace.
    public func shutdown(grace: TimeInterval) async {
        await core.shutdown(grace: grace)
    }

    deinit {
        core.stopNow()
    }
}
