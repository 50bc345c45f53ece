import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import NukeServe

/// What a running server shares between libmicrohttpd's threads, the handler tasks and `shutdown(grace:)`.
struct CoreState {
    var machine = TransportStateMachine<OpaquePointer>()
    var daemon: OpaquePointer?
    /// The draining shutdown, waiting for no requests in flight or the end of the grace period.
    var drainWaiter: CheckedContinuation<Void, Never>?
    var graceExpired = false
    /// Further shutdown calls, waiting for the first one to finish.
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
}

/// What runs a server: the handler, the limits and the shared state. libmicrohttpd's callbacks receive it
/// unretained as their closure argument; ``MicroHTTPDServer`` keeps it alive until the daemon is stopped, and handler
/// tasks retain it until they deliver.
///
/// Lock order: `state`'s lock may be held while calling `MHD_suspend_connection` and `MHD_resume_connection` (which
/// take libmicrohttpd's cleanup mutex); libmicrohttpd never calls back into this class while holding that mutex, so
/// the order is one-way. `MHD_stop_daemon`, which joins the threads that call back, is never called under the lock.
final class MicroHTTPDCore: Sendable {
    let handler: any ServeHandler
    let maximumHeadBytes: Int
    /// Accepts the connections and hands them to the daemon; told when each starts and closes.
    let acceptor: Acceptor
    let state = LockedState(CoreState())

    init(handler: any ServeHandler, maximumHeadBytes: Int, acceptor: Acceptor) {
        self.handler = handler
        self.maximumHeadBytes = maximumHeadBytes
        self.acceptor = acceptor
    }

    /// A request line was read: counts the request in flight and makes its record.
    func requestStarted(target: String) -> RequestContext {
        RequestContext(id: state.withLock { $0.machine.requestStarted() }, target: target)
    }

    /// libmicrohttpd is done with the request (sent, failed, or closed with its connection).
    func requestCompleted(_ context: RequestContext) {
        state.withLock { state in
            if state.machine.requestCompleted(context.id), let waiter = state.drainWaiter {
                state.drainWaiter = nil
                waiter.resume()
            }
        }
    }

    /// The access handler callback: reads the head, refuses, starts the handler, or queues its response.
    func access(
        _ context: RequestContext, connection: OpaquePointer, method: String, version: String,
        uploadDataSize: UnsafeMutablePointer<Int>?
    ) -> MHD_Result {
        if let uploadDataSize, uploadDataSize.pointee != 0 {
            // Bodies are refused on the first call, before any is read; drop anything that still arrives.
            uploadDataSize.pointee = 0
            return .YES
        }
        let action = state.withLock { state in
            let action = state.machine.requestReceived(context.id, connection: connection)
            switch action {
            case .startHandler, .stayWaiting: MHD_suspend_connection(connection)
            case .readHead, .respond, .close: break
            }
            return action
        }
        switch action {
        case .readHead:
            let head = RequestHead.read(context, method: method, version: version, connection: connection)
            let refusal = RequestHead.refusal(
                method: method, size: head.size, hasBody: head.hasBody, maximumHeadBytes: maximumHeadBytes)
            let immediate = state.withLock {
                $0.machine.headRead(context.id, request: head.request, refusal: refusal, hasBody: head.hasBody)
            }
            return immediate.map { Self.queue($0, on: connection, closing: true) } ?? .YES
        case .respond(let response, let closing):
            return Self.queue(response, on: connection, closing: closing)
        case .startHandler(let request):
            let handler = self.handler
            let id = context.id
            Task {
                let response = await handler.respond(to: request)
                self.deliver(response, to: id)
            }
            return .YES
        case .stayWaiting:
            return .YES
        case .close:
            return .NO
        }
    }

    /// A handler finished: resumes the connection with the response, unless shutdown already answered for it.
    private func deliver(_ response: ServeResponse, to id: Int) {
        state.withLock { state in
            if let connection = state.machine.handlerFinished(id, response: response) {
                MHD_resume_connection(connection)
            }
        }
    }

    /// Queues `response` on `connection`; `closing` adds `Connection: close`. Never fails the process: an invalid
    /// status becomes a 500, a header libmicrohttpd refuses (a value with a line break) is left out, and a handler's
    /// `Content-Length` is dropped except on a `304`, where it announces the representation's length.
    private static func queue(_ response: ServeResponse, on connection: OpaquePointer, closing: Bool) -> MHD_Result {
        let response = (200...999).contains(response.status) ? response : TransportResponse.invalidStatus
        // A 304 announces the length of the representation it stands for (RFC 9110, 8.6), which only the handler
        // knows: its Content-Length, else none known (libmicrohttpd then sends 0).
        let representationLength =
            response.status == 304 ? response.header("Content-Length").flatMap { UInt64($0) } : nil
        let created: OpaquePointer? =
            if let representationLength {
                CMicroHTTPDShim_create_not_modified_response(representationLength)
            } else if response.body.isEmpty {
                MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            } else {
                response.body.withUnsafeBytes { bytes in
                    MHD_create_response_from_buffer(
                        bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
                }
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
