import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension MicroHTTPDCore {
    /// Stops accepting, waits up to `grace` seconds for the requests in flight, then stops the daemon. Idempotent:
    /// a call during another one waits for it; a call after it returns at once.
    func shutdown(grace: TimeInterval) async {
        switch state.withLock({ $0.machine.shutdownRequested() }) {
        case .done:
            return
        case .wait:
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let stopped = state.withLock { state in
                    if state.machine.phase == .stopped { return true }
                    state.stopWaiters.append(continuation)
                    return false
                }
                if stopped { continuation.resume() }
            }
        case .drain:
            quiesce()
            if grace > 0 {
                await waitForRequestsInFlight(upTo: grace)
            }
            stopDaemon()
        }
    }

    /// Stops at once without waiting for requests in flight (handlers still running get a 503); for `deinit`.
    func stopNow() {
        guard state.withLock({ $0.machine.shutdownRequested() }) == .drain else { return }
        quiesce()
        stopDaemon()
    }

    /// Stops accepting and closes the listening socket, so that new connections are refused at once.
    private func quiesce() {
        acceptor.stop()
    }

    private func waitForRequestsInFlight(upTo grace: TimeInterval) async {
        guard state.withLock({ $0.machine.requestsInFlight > 0 }) else { return }
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(min(grace, 1e9) * 1e9))
            guard !Task.isCancelled else { return }
            self.state.withLock { state in
                state.graceExpired = true
                state.drainWaiter?.resume()
                state.drainWaiter = nil
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.machine.requestsInFlight == 0 || state.graceExpired { return true }
                state.drainWaiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
        timer.cancel()
    }

    /// Answers every request whose handler still runs with a 503 and resumes its connection, then stops the daemon
    /// and wakes the waiting shutdown calls.
    private func stopDaemon() {
        let daemon = state.withLock { state in
            for connection in state.machine.stopping() {
                MHD_resume_connection(connection)
            }
            return state.daemon
        }
        if let daemon {
            MHD_stop_daemon(daemon)
        }
        let waiters = state.withLock { state in
            state.machine.stopped()
            state.daemon = nil
            defer { state.stopWaiters.removeAll() }
            return state.stopWaiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }
}
