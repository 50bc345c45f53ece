/// Bytes of downloaded data waiting to be decoded. New loads wait while the total is over the limit, so data can't
/// pile up faster than decoders consume it (downloads are usually much faster than decodes).
final class ByteBudget: Sendable {
    private struct State {
        var used = 0
        var waiters: [@Sendable () -> Void] = []
    }

    /// The most bytes that may wait before new loads are held back.
    let limit: Int
    private let state = LockedValueBox(State())

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The bytes in use now.
    var used: Int { state.withLock { $0.used } }

    /// Runs `body` now if the budget isn't exceeded, else (in order) once it drops back to the limit.
    func whenAvailable(_ body: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            guard state.used > limit else { return true }
            state.waiters.append(body)
            return false
        }
        if runNow { body() }
    }

    /// Takes `bytes` from the budget until the returned ticket is released.
    func take(_ bytes: Int) -> Ticket {
        state.withLock { $0.used += bytes }
        return Ticket(budget: self, bytes: bytes)
    }

    fileprivate func give(_ bytes: Int) {
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            state.used -= bytes
            guard state.used <= limit else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter() }
    }

    /// Bytes taken from a budget; ``release()`` gives them back once (later calls do nothing).
    final class Ticket: Sendable {
        private let budget: ByteBudget
        private let bytes: Int
        private let isReleased = LockedValueBox(false)

        fileprivate init(budget: ByteBudget, bytes: Int) {
            self.budget = budget
            self.bytes = bytes
        }

        func release() {
            let shouldGive = isReleased.withLock { released in
                defer { released = true }
                return !released
            }
            if shouldGive { budget.give(bytes) }
        }

        deinit { release() }
    }
}
