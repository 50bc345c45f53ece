import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import NukeServe

#if canImport(Glibc)
    import Glibc
#endif

/// The state a running ``MicroHTTPDServer`` shares between libmicrohttpd's threads, the handler tasks and
/// `shutdown(grace:)`; guarded by `MicroHTTPDCore.state`'s lock.
struct ServerState {
    enum Phase {
        /// Accepting connections and serving requests.
        case running
        /// No new connections; requests in flight finish (responses say `Connection: close`).
        case draining
        /// Suspended connections were resumed with a 503; the daemon is being stopped.
        case stopping
        /// The daemon is stopped and every descriptor closed.
        case stopped
    }

    var phase = Phase.running
    var daemon: OpaquePointer?
    /// The listening socket returned by `MHD_quiesce_daemon`, closed after `MHD_stop_daemon`.
    var quiescedSocket: Int32?
    /// Requests between their request line and their completion notice.
    var requestsInFlight = 0
    /// Requests whose connection is suspended while their handler runs.
    var handling: [ObjectIdentifier: RequestContext] = [:]
    /// The draining `shutdown(grace:)` call, waiting for no requests in flight or the end of the grace period.
    var drainWaiter: CheckedContinuation<Void, Never>?
    var graceExpired = false
    /// Further `shutdown(grace:)` calls, waiting for the first one to finish.
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
}

/// What runs a server: the handler, the limits and the shared state. libmicrohttpd's callbacks receive it
/// unretained as their closure argument; ``MicroHTTPDServer`` keeps it alive until the daemon is stopped, and handler
/// tasks retain it until they deliver.
///
/// Lock order: `state`'s lock may be held while calling `MHD_suspend_connection` and `MHD_resume_connection` (which
/// take libmicrohttpd's cleanup mutex); libmicrohttpd never calls back into this class while holding that mutex, so
/// the order is one-way. Doing both under the lock makes "suspended" and "resumed exactly once" one fact with the
/// request's phase. `MHD_stop_daemon`, which joins the threads that call back, is never called under the lock.
final class MicroHTTPDCore: Sendable {
    let handler: any ServeHandler
    let maximumHeadBytes: Int
    let state = LockedState(ServerState())

    init(handler: any ServeHandler, maximumHeadBytes: Int) {
        self.handler = handler
        self.maximumHeadBytes = maximumHeadBytes
    }

    // MARK: - Callbacks (on libmicrohttpd's threads)

    /// A request line was read: counts the request in flight and makes its record.
    func requestStarted(target: String, connection: OpaquePointer) -> RequestContext {
        state.withLock { $0.requestsInFlight += 1 }
        return RequestContext(target: target, connection: connection)
    }

    /// libmicrohttpd is done with the request (sent, failed, or closed with its connection).
    func requestCompleted(_ context: RequestContext) {
        state.withLock { state in
            context.phase = .completed
            state.handling[ObjectIdentifier(context)] = nil
            state.requestsInFlight -= 1
            if state.requestsInFlight == 0, let waiter = state.drainWaiter {
                state.drainWaiter = nil
                waiter.resume()
            }
        }
    }

    /// The access handler callback: refuses, starts the handler, or queues the response it produced.
    func access(
        _ context: RequestContext, connection: OpaquePointer, method: String, version: String,
        uploadDataSize: UnsafeMutablePointer<Int>?
    ) -> MHD_Result {
        if let uploadDataSize, uploadDataSize.pointee != 0 {
            // Bodies are refused on the first call, before any is read; drop anything that still arrives.
            uploadDataSize.pointee = 0
            return .YES
        }
        let isFirstCall = state.withLock { _ in
            if case .started = context.phase { return true }
            return false
        }
        if isFirstCall {
            return readHead(context, method: method, version: version, connection: connection)
        }

        enum Action {
            case queue(ServeResponse, closing: Bool)
            case startHandler(ServeRequest)
            case none
            case close
        }
        let action: Action = state.withLock { state in
            let closing = state.phase != .running
            switch context.phase {
            case .refused(let response), .ready(let response):
                context.phase = .queued
                return .queue(response, closing: closing)
            case .accepted(let request):
                guard state.phase == .running || state.phase == .draining else {
                    context.phase = .queued
                    return .queue(TransportResponse.shuttingDown, closing: true)
                }
                MHD_suspend_connection(connection)
                context.phase = .handling
                state.handling[ObjectIdentifier(context)] = context
                return .startHandler(request)
            case .handling:
                // Called again without a resume (never expected): stay suspended until the handler delivers.
                MHD_suspend_connection(connection)
                return .none
            case .started, .queued, .completed:
                return .close
            }
        }
        switch action {
        case .queue(let response, let closing):
            return Self.queue(response, on: connection, closing: closing)
        case .startHandler(let request):
            let handler = self.handler
            Task {
                let response = await handler.respond(to: request)
                self.deliver(response, to: context)
            }
            return .YES
        case .none:
            return .YES
        case .close:
            return .NO
        }
    }

    /// The first call, right after the head: records the request, or refuses it. A refusal of a request with a body
    /// is queued at once (libmicrohttpd then reads no body and closes the connection after the response); other
    /// refusals wait for the next call so that the connection stays open.
    private func readHead(
        _ context: RequestContext, method: String, version: String, connection: OpaquePointer
    ) -> MHD_Result {
        let head = RequestHead.read(context, method: method, version: version, connection: connection)
        let refusal = RequestHead.refusal(
            method: method, size: head.size, hasBody: head.hasBody, maximumHeadBytes: maximumHeadBytes)
        if let refusal, head.hasBody {
            state.withLock { _ in context.phase = .queued }
            return Self.queue(refusal, on: connection, closing: true)
        }
        state.withLock { _ in context.phase = refusal.map { .refused($0) } ?? .accepted(head.request) }
        return .YES
    }

    /// A handler finished: resumes the connection with the response, unless shutdown already answered for it.
    private func deliver(_ response: ServeResponse, to context: RequestContext) {
        state.withLock { state in
            guard case .handling = context.phase else { return }
            context.phase = .ready(response)
            state.handling[ObjectIdentifier(context)] = nil
            MHD_resume_connection(context.connection)
        }
    }

    /// Queues `response` on `connection`; `closing` adds `Connection: close`. Never fails the process: an invalid
    /// status becomes a 500, a header libmicrohttpd refuses (`Content-Length`, a value with a line break) is left out.
    private static func queue(_ response: ServeResponse, on connection: OpaquePointer, closing: Bool) -> MHD_Result {
        let response = (200...999).contains(response.status) ? response : TransportResponse.invalidStatus
        let created: OpaquePointer? =
            response.body.isEmpty
            ? MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            : response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for (name, value) in response.headers {
            let lowercased = name.lowercased()
            if lowercased == "content-length" || lowercased == "transfer-encoding" { continue }
            _ = MHD_add_response_header(created, name, value)
        }
        if closing {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(response.status), created)
    }
}
