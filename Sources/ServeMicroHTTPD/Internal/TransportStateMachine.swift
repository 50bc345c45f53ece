import NukeServe

/// The transport's state as plain values: the server's phase and the phase of every request that libmicrohttpd has
/// reported and not yet completed. Each event returns what to do. `MicroHTTPDCore` holds it behind a lock and carries
/// the actions out: suspending and resuming a connection under that same lock (so that "suspended" and "resumed
/// exactly once" are one fact with the request's phase), everything else after it.
///
/// Generic over the connection handle, so that tests drive it with plain values.
struct TransportStateMachine<Connection> {
    /// The server's phase.
    enum Phase: Equatable {
        /// Accepting connections and serving requests.
        case running
        /// No new connections; requests in flight finish, their responses saying `Connection: close`.
        case draining
        /// Requests whose handler still runs were answered `503`; the daemon is being stopped.
        case stopping
        /// The daemon is stopped.
        case stopped
    }

    /// Where a request is.
    private enum RequestPhase {
        /// The request line has been read; the access handler has not seen the head yet.
        case started
        /// The head is valid; the call after the (empty) body starts the handler.
        case accepted(ServeRequest)
        /// The head was refused (405, 431); the next call sends the response.
        case refused(ServeResponse)
        /// The connection is suspended while the handler runs; only this phase is ever resumed.
        case handling(Connection)
        /// The connection was resumed with this response, which the next call sends.
        case ready(ServeResponse)
        /// A response was queued; only the completion notice is left.
        case queued
    }

    /// What a call of the access handler does.
    enum CallAction {
        /// Read the head (outside the lock), then report it with ``headRead(_:request:refusal:hasBody:)``.
        case readHead
        /// Queue this response; `closing` adds `Connection: close`.
        case respond(ServeResponse, closing: Bool)
        /// Suspend the connection (under the lock), then run the handler for this request in a task.
        case startHandler(ServeRequest)
        /// Suspend the connection again (under the lock): its handler still runs.
        case stayWaiting
        /// Nothing is left to do for this request: close the connection.
        case close
    }

    /// What a shutdown call does.
    enum ShutdownStep: Equatable {
        /// Quiesce, wait for the requests in flight up to the grace period, then stop.
        case drain
        /// Another call is shutting down: wait for it.
        case wait
        /// Already stopped.
        case done
    }

    private(set) var phase = Phase.running
    private var requests: [Int: RequestPhase] = [:]
    private var nextID = 0

    /// Requests between their request line and their completion notice.
    var requestsInFlight: Int { requests.count }

    /// A request line was read; returns the request's id.
    mutating func requestStarted() -> Int {
        let id = nextID
        nextID &+= 1
        requests[id] = .started
        return id
    }

    /// The access handler was called for request `id` on `connection`.
    mutating func requestReceived(_ id: Int, connection: Connection) -> CallAction {
        switch requests[id] {
        case .started?:
            return .readHead
        case .refused(let response)?, .ready(let response)?:
            requests[id] = .queued
            return .respond(response, closing: phase != .running)
        case .accepted(let request)?:
            guard phase == .running || phase == .draining else {
                requests[id] = .queued
                return .respond(TransportResponse.shuttingDown, closing: true)
            }
            requests[id] = .handling(connection)
            return .startHandler(request)
        case .handling?:
            return .stayWaiting
        case .queued?, nil:
            return .close
        }
    }

    /// The head of request `id` was read, with the transport's `refusal` if any. Returns a response to queue at once:
    /// the refusal of a request with a body (libmicrohttpd then reads no body and closes the connection after it).
    /// Other refusals, and accepted requests, wait for the next call, which keeps the connection open.
    mutating func headRead(_ id: Int, request: ServeRequest, refusal: ServeResponse?, hasBody: Bool) -> ServeResponse? {
        guard case .started? = requests[id] else { return nil }
        if let refusal, hasBody {
            requests[id] = .queued
            return refusal
        }
        requests[id] = refusal.map { .refused($0) } ?? .accepted(request)
        return nil
    }

    /// The handler of request `id` answered. Returns the connection to resume, or `nil` when the request no longer
    /// waits for it (shutdown answered it, or it completed).
    mutating func handlerFinished(_ id: Int, response: ServeResponse) -> Connection? {
        guard case .handling(let connection)? = requests[id] else { return nil }
        requests[id] = .ready(response)
        return connection
    }

    /// libmicrohttpd completed request `id` (sent, failed, or closed with its connection). Returns true when it was
    /// the last request in flight while draining.
    mutating func requestCompleted(_ id: Int) -> Bool {
        requests[id] = nil
        return phase == .draining && requests.isEmpty
    }

    /// A shutdown was asked for.
    mutating func shutdownRequested() -> ShutdownStep {
        switch phase {
        case .running:
            phase = .draining
            return .drain
        case .draining, .stopping:
            return .wait
        case .stopped:
            return .done
        }
    }

    /// The grace period is over: every request whose handler still runs is answered `503`. Returns their connections,
    /// to resume before the daemon stops (libmicrohttpd must not be stopped with suspended connections).
    mutating func stopping() -> [Connection] {
        phase = .stopping
        var suspended: [Connection] = []
        for (id, request) in requests {
            if case .handling(let connection) = request {
                requests[id] = .ready(TransportResponse.shuttingDown)
                suspended.append(connection)
            }
        }
        return suspended
    }

    /// The daemon is stopped.
    mutating func stopped() {
        phase = .stopped
    }
}
