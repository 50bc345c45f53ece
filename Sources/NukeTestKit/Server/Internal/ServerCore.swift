#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import NukeCore
import Foundation

/// The shared state of a ``LoopbackHTTPServer``: routes, the request log, counters, open connections and
/// waiters, plus the accept loop. Server threads hold this object, not the public server, so the server's
/// `deinit` can shut them down.
final class ServerCore: Sendable {
    struct State {
        var routes: [String: LoopbackHTTPServer.Route]
        var requests: [LoopbackHTTPServer.RecordedRequest] = []
        var statistics = LoopbackHTTPServer.Statistics()
        var connections: [Int: Int32] = [:]
        var isShutDown = false
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }

    struct Waiter {
        let condition: @Sendable (LoopbackHTTPServer.Statistics) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    let state: LockedValueBox<State>
    let wake: WakePipe
    private let listenFD: Int32
    private let threads = DispatchGroup()

    init(listenFD: Int32, routes: [String: LoopbackHTTPServer.Route]) throws {
        self.listenFD = listenFD
        state = LockedValueBox(State(routes: routes))
        do {
            wake = try WakePipe()
        } catch {
            close(listenFD)
            throw error
        }
    }

    func start() {
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.name = "LoopbackHTTPServer.accept"
        thread.start()
    }

    func route(for path: String) -> LoopbackHTTPServer.Route? {
        state.withLock { $0.routes[path] }
    }

    /// Logs a request and returns its connection-local index.
    func record(_ request: LoopbackHTTPServer.RecordedRequest) {
        update { state in
            state.requests.append(request)
            state.statistics.requestCount += 1
        }
    }

    func responseAborted() {
        update { $0.statistics.abortedResponses += 1 }
    }

    /// Changes the state and resumes the waiters whose condition now holds.
    func update(_ change: (inout State) -> Void) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            change(&state)
            let statistics = state.statistics
            let ids = state.waiters.filter { $0.value.condition(statistics) }.map(\.key)
            return ids.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in ready { continuation.resume() }
    }

    func waitUntil(
        _ what: String, timeout: Duration, _ condition: @escaping @Sendable (LoopbackHTTPServer.Statistics) -> Bool
    ) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enum Outcome {
                case ready, shutDown, waiting(Int)
            }
            let outcome = state.withLock { state -> Outcome in
                if condition(state.statistics) { return .ready }
                if state.isShutDown { return .shutDown }
                state.nextID += 1
                state.waiters[state.nextID] = Waiter(condition: condition, continuation: continuation)
                return .waiting(state.nextID)
            }
            switch outcome {
            case .ready:
                continuation.resume()
            case .shutDown:
                continuation.resume(throwing: LoopbackHTTPServer.Error.shutDown)
            case let .waiting(id):
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) { [self] in
                    let expired = state.withLock { state in
                        state.waiters.removeValue(forKey: id).map { ($0.continuation, state.statistics) }
                    }
                    if let (continuation, statistics) = expired {
                        continuation.resume(throwing: LoopbackHTTPServer.Error.timedOut(what, statistics))
                    }
                }
            }
        }
    }

    func shutdown() {
        let waiters = state.withLock { state -> [Waiter]? in
            guard !state.isShutDown else { return nil }
            state.isShutDown = true
            // Under the lock, so no descriptor is closed (and reused) between the lookup and the call.
            for fd in state.connections.values { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        guard let waiters else { return }
        wake.signal()
        _ = threads.wait(timeout: .now() + 30)
        close(listenFD)
        for waiter in waiters { waiter.continuation.resume(throwing: LoopbackHTTPServer.Error.shutDown) }
    }

    private func acceptLoop() {
        while true {
            let ready = Socket.waitReadable([listenFD, wake.readFD], timeout: -1)
            guard ready == [0] else { return }
            guard let fd = Socket.accept(listenFD) else { continue }
            var noDelay: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            var registration: (id: Int, number: Int)?
            update { state in
                guard !state.isShutDown else { return }
                state.nextID += 1
                state.connections[state.nextID] = fd
                state.statistics.acceptedConnections += 1
                state.statistics.openConnections += 1
                registration = (state.nextID, state.statistics.acceptedConnections)
                threads.enter()
            }
            guard let (id, connectionNumber) = registration else {
                close(fd)
                continue
            }
            let thread = Thread { [self] in
                var connection = HTTPConnection(fd: fd, number: connectionNumber, core: self)
                connection.run()
                update { state in
                    state.connections[id] = nil
                    close(fd)
                    state.statistics.openConnections -= 1
                }
                threads.leave()
            }
            thread.name = "LoopbackHTTPServer.connection"
            thread.start()
        }
    }
}
