import CMicroHTTPD
import CMicroHTTPDShim
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts connections on the listening socket on a thread of its own and hands each to libmicrohttpd
/// (`MHD_add_connection`), which serves it on one of its workers.
///
/// Accepting here rather than in libmicrohttpd's workers is what lets the server stop accepting at shutdown without
/// `MHD_quiesce_daemon`, which in libmicrohttpd 0.9.75 races with its epoll workers (both remove the listening socket
/// from a worker's epoll set, unlocked, and the one that finds it already gone aborts the process).
///
/// ## Contract
/// - At most `limit` connections are open at once: handed over and not yet closed. At the limit the thread stops
///   accepting, so further connections wait in the listen backlog until one closes.
/// - Running out of descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`) pauses accepting for 10 ms
///   and retries; it never spins or stops the server.
/// - ``stop()`` returns once the thread has exited and the listening socket is closed: connections that are
///   neither accepted nor in the backlog are refused from then on. Call it before `MHD_stop_daemon`, since the
///   thread hands connections to the daemon.
final class Acceptor: @unchecked Sendable {
    // @unchecked: the mutable state below is only touched with `condition` locked.
    private let socket: ListeningSocket
    private let limit: Int
    private let condition = NSCondition()
    /// Descriptors handed to libmicrohttpd that it has not reported started yet.
    private var handedOver: Set<Int32> = []
    /// Connections libmicrohttpd reported started and not yet closed.
    private var open = 0
    private var stopping = false
    /// Whether the thread is not running: not started yet, or exited.
    private var exited = true
    private var closed = false

    /// Takes over `socket` (closed by ``stop()``), for at most `limit` connections open at once.
    init(socket: ListeningSocket, limit: Int) {
        self.socket = socket
        self.limit = limit
    }

    /// Starts accepting for `daemon`, which must have been started without a listening socket of its own and report
    /// its connections to ``connectionStarted(descriptor:)`` and ``connectionClosed()``. Call it once.
    func start(daemon: OpaquePointer) {
        condition.withLock { exited = false }
        nonisolated(unsafe) let daemon = daemon  // used by the thread only, before stop() returns
        let thread = Thread { [self] in run(daemon: daemon) }
        thread.name = "nuke-serve-accept"
        thread.start()
    }

    /// libmicrohttpd started serving the connection on `descriptor` (`MHD_CONNECTION_NOTIFY_STARTED`).
    func connectionStarted(descriptor: Int32) {
        condition.withLock {
            handedOver.remove(descriptor)
            open += 1
        }
    }

    /// libmicrohttpd closed a connection it had started (`MHD_CONNECTION_NOTIFY_CLOSED`).
    func connectionClosed() {
        condition.withLock {
            open -= 1
            condition.broadcast()
        }
    }

    /// Stops accepting, waits for the thread to exit and closes the listening socket. Idempotent.
    func stop() {
        let first = condition.withLock {
            defer { stopping = true }
            condition.broadcast()
            return !stopping
        }
        if first {
            // Wakes a blocked accept(2) (it fails with EINVAL) and resets connections still in the backlog.
            _ = Glibc.shutdown(socket.descriptor, Int32(SHUT_RDWR))
        }
        condition.withLock {
            while !exited { condition.wait() }
            if !closed {
                closed = true
                socket.close()
            }
        }
    }

    private func run(daemon: OpaquePointer) {
        while let (descriptor, address, length) = acceptNext() {
            let added = withUnsafePointer(to: address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    MHD_add_connection(daemon, descriptor, $0, length)
                }
            }
            if added != .YES {
                // libmicrohttpd refused it and closed the descriptor.
                _ = condition.withLock { handedOver.remove(descriptor) }
            }
        }
        condition.withLock {
            exited = true
            condition.broadcast()
        }
    }

    /// Waits for room under the limit and accepts the next connection, counted as handed over; nil once stopping.
    private func acceptNext() -> (Int32, sockaddr_storage, socklen_t)? {
        while true {
            let proceed = condition.withLock {
                while !stopping && handedOver.count + open >= limit { condition.wait() }
                return !stopping
            }
            guard proceed else { return nil }

            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let descriptor = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    CMicroHTTPDShim_accept(socket.descriptor, $0, &length)
                }
            }
            let failure = errno
            let accepted = condition.withLock { () -> Bool? in
                guard !stopping else { return nil }
                guard descriptor >= 0 else { return false }
                // A descriptor still counted as handed over was closed by libmicrohttpd before it started (it failed
                // to allocate the connection's memory): this connection takes its place rather than another one.
                handedOver.insert(descriptor)
                return true
            }
            switch accepted {
            case nil:
                if descriptor >= 0 { Glibc.close(descriptor) }
                return nil
            case true?:
                return (descriptor, address, length)
            case false?:
                switch failure {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: the connection stays in the backlog; try again shortly.
                    condition.withLock { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.01)) }
                case EINTR, EAGAIN, ECONNABORTED, EPROTO, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH,
                    EOPNOTSUPP, ENETUNREACH, EPERM:
                    // Interrupted, or an error of that one connection (accept(2) passes on pending network errors):
                    // take the next one.
                    continue
                default:
                    // Not expected on a listening socket; pause rather than spin should it persist.
                    condition.withLock { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.01)) }
                }
            }
        }
    }
}
