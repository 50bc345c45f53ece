import CMicroHTTPD
import CMicroHTTPDShim

/// libmicrohttpd's callbacks. Each gets the server's `MicroHTTPDCore` unretained as its closure argument (the server
/// keeps it alive until `MHD_stop_daemon` has joined every thread that calls these).
enum Callbacks {
    /// A request line was read: makes the request's record, retained once as its `con_cls`.
    static let requestStarted: CMicroHTTPDShim_RequestStarted = { core, target, connection in
        guard let core, connection != nil else { return nil }
        let context = Unmanaged<MicroHTTPDCore>.fromOpaque(core).takeUnretainedValue().requestStarted(
            target: target.map { String(cString: $0) } ?? "/")
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// The access handler: called after the head, after the (empty) body, and again after each resume.
    static let access: MHD_AccessHandlerCallback = {
        core, connection, _, method, version, _, uploadDataSize, requestContext in
        guard let core, let connection, let record = requestContext?.pointee else { return .NO }
        let context = Unmanaged<RequestContext>.fromOpaque(record).takeUnretainedValue()
        return Unmanaged<MicroHTTPDCore>.fromOpaque(core).takeUnretainedValue().access(
            context, connection: connection, method: method.map { String(cString: $0) } ?? "",
            version: version.map { String(cString: $0) } ?? "", uploadDataSize: uploadDataSize)
    }

    /// The request is complete (or its connection closed): releases its record.
    static let requestCompleted: MHD_RequestCompletedCallback = { core, _, requestContext, _ in
        guard let core, let requestContext, let record = requestContext.pointee else { return }
        requestContext.pointee = nil
        let context = Unmanaged<RequestContext>.fromOpaque(record).takeRetainedValue()
        Unmanaged<MicroHTTPDCore>.fromOpaque(core).takeUnretainedValue().requestCompleted(context)
    }

    /// A connection started or closed: keeps the acceptor's count of open connections.
    static let connectionNotify: MHD_NotifyConnectionCallback = { core, connection, _, event in
        guard let core, let connection else { return }
        let acceptor = Unmanaged<MicroHTTPDCore>.fromOpaque(core).takeUnretainedValue().acceptor
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            acceptor.connectionStarted(descriptor: CMicroHTTPDShim_connection_fd(connection))
        case .CONNECTION_NOTIFY_CLOSED:
            acceptor.connectionClosed()
        default:
            break
        }
    }
}
