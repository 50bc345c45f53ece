/// The bytes the pipeline holds for requests between the network and the app: downloaded data (from its first
/// received byte until its decode ends) and decoded or processed images (until the app receives them). New loads
/// wait while the total is over the limit, so neither downloads nor undelivered images can pile up faster than
/// decoders and callers consume them, whatever the number of requests.
final class ByteBudget: Sendable {
    private struct State {
        var used = 0
        var waiters: [@Sendable () -> Void] = []
    }

    /// The most bytes that may be held before new loads wait.
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

    /// Takes `bytes` from the budget until the returned ticket is released (or deallocated).
    func take(_ bytes: Int) -> Ticket {
        let ticket = Ticket(budget: self)
        ticket.add(bytes)
        return ticket
    }

    fileprivate func add(_ bytes: Int) {
        state.withLock { $0.used += bytes }
    }

    fileprivate func give(_ bytes: Int) {
        guard bytes != 0 else { return }
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            state.used -= bytes
            guard state.used <= limit else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter() }
    }

    /// Bytes taken from a budget, which may grow (a download, chunk by chunk). ``release()`` gives them back once;
    /// so does deallocation, so a ticket dropped on any path (a failure, a cancel) never leaks budget. Safe from
    /// any thread.
    final class Ticket: Sendable {
        private let budget: ByteBudget
        private struct State {
            var bytes = 0
            var isReleased = false
        }
        private let state = LockedValueBox(State())

        fileprivate init(budget: ByteBudget) {
            self.budget = budget
        }

        /// The bytes the ticket holds.
        var bytes: Int { state.withLock { $0.bytes } }

        /// Takes `bytes` more from the budget (nothing once released).
        func add(_ bytes: Int) {
            let isAdded = state.withLock { state in
                guard !state.isReleased else { return false }
                state.bytes += bytes
                return true
            }
            if isAdded { budget.add(bytes) }
        }

        /// Gives the bytes back; later calls do nothing.
        func release() {
            let bytes = state.withLock { state -> Int in
                guard !state.isReleased else { return 0 }
                state.isReleased = true
                return state.bytes
            }
            budget.give(bytes)
        }

        deinit { release() }
    }
}

extension ByteBudget {
    /// A ticket for the pixels of an image (previews and images without a budget are not counted).
    func take(for container: ImageContainer) -> Ticket {
        take(container.image.bytesPerRow * container.image.height)
    }

    /// `response` holding its image's bytes until the app receives it.
    @Sendable func hold(_ response: ImageResponse) -> ImageResponse {
        var response = response
        response.backlogTicket = take(for: response.container)
        return response
    }
}
