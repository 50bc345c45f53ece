/// Counts work that runs detached from any task (disk cache encodes), so tests and shutdown code can wait
/// for it to drain.
final class WorkCounter: Sendable {
    private struct State {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValueBox(State())

    func begin() {
        state.withLock { $0.count += 1 }
    }

    func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when no work is running.
    func wait() async {
        await withCheckedContinuation { continuation in
            let isIdle = state.withLock { state in
                if state.count > 0 { state.waiters.append(continuation) }
                return state.count == 0
            }
            if isIdle { continuation.resume() }
        }
    }
}
