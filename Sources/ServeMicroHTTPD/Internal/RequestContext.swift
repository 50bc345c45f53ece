import NukeServe

/// One request's record, from its request line (libmicrohttpd's URI callback) to its completion notice. It travels
/// as the request's `con_cls`, retained once; the completion notice releases it.
final class RequestContext: @unchecked Sendable {
    // @unchecked: `phase` is only read or written under the server's lock (`MicroHTTPDCore.state`); the other
    // properties are immutable, and `connection` is used only while the request is live (see `Phase`).

    /// Where a request is.
    enum Phase {
        /// The request line has been read; the handler callback has not seen the head yet.
        case started
        /// The head is valid; waiting for the callback that follows the (empty) body to call the handler.
        case accepted(ServeRequest)
        /// The head was refused (405, 431); the response is queued on the next callback.
        case refused(ServeResponse)
        /// The connection is suspended while the handler runs in a task; only this state is ever resumed.
        case handling
        /// The connection was resumed with this response, which the next callback queues.
        case ready(ServeResponse)
        /// A response was queued; nothing is left to do but wait for the completion notice.
        case queued
        /// libmicrohttpd reported the request complete; the connection may be gone.
        case completed
    }

    /// The request target exactly as sent (still percent-encoded, with its query).
    let target: String
    /// The connection the request came on; valid until the completion notice.
    let connection: OpaquePointer
    /// Guarded by the server's lock.
    var phase = Phase.started

    init(target: String, connection: OpaquePointer) {
        self.target = target
        self.connection = connection
    }
}
