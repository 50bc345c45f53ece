import Synchronization

/// The bytes the pipeline holds for requests between the network and the app: downloaded data (from its first
/// received byte until its decode ends) and decoded or processed images (until the app receives them). New loads
/// wait while the total is over the limit, so neither downloads nor undelivered images can pile up faster than
/// decoders and callers consume them, whatever the number of requests.
final class ByteBudget: Sendable {
    private let state: LockedValueBox<ByteBudgetState<@Sendable () -> Void>>

    init(limit: Int) {
        self.state = LockedValueBox(ByteBudgetState(limit: max(0, limit)))
    }

    /// The bytes in use now.
    var used: Int { state.withLock { $0.used } }

    /// `true` while the budget isn't exceeded: what ``whenAvailable(_:)`` checks, for a caller that can skip
    /// making its closure in the common case.
    var isAvailable: Bool { state.withLock { $0.isAvailable } }

    /// Runs `body` now if the budget isn't exceeded, else (in order) once it drops back to the limit.
    func whenAvailable(_ body: @escaping @Sendable () -> Void) {
        if state.withLock({ $0.whenAvailable(body) }) { body() }
    }

    /// Takes `bytes` from the budget until the returned ticket is released (or deallocated).
    func take(_ bytes: Int) -> Ticket {
        let ticket = Ticket(budget: self)
        ticket.add(bytes)
        return ticket
    }

    fileprivate func add(_ bytes: Int) {
        state.withLock { $0.add(bytes) }
    }

    fileprivate func give(_ bytes: Int) {
        guard bytes != 0 else { return }
        for waiter in state.withLock({ $0.give(bytes) }) { waiter() }
    }

    /// Bytes taken from a budget, which may grow (a download, chunk by chunk). ``release()`` gives them back once;
    /// so does deallocation, so a ticket dropped on any path (a failure, a cancel) never leaks budget. Safe from
    /// any thread.
    final class Ticket: Sendable {
        private let budget: ByteBudget
        /// The bytes held, or ``released`` once given back: one atomic word, so a ticket is one allocation and
        /// growing it takes no lock.
        private let held = Atomic<Int>(0)
        private static var released: Int { -1 }

        fileprivate init(budget: ByteBudget) {
            self.budget = budget
        }

        /// The bytes the ticket holds (0 once released).
        var bytes: Int { max(0, held.load(ordering: .acquiring)) }

        /// Takes `bytes` more from the budget (nothing once released).
        func add(_ bytes: Int) {
            guard bytes != 0 else { return }
            var current = held.load(ordering: .relaxed)
            while current != Self.released {
                let (exchanged, original) = held.compareExchange(
                    expected: current, desired: current + bytes, ordering: .acquiringAndReleasing)
                if exchanged { return budget.add(bytes) }
                current = original
            }
        }

        /// Gives the bytes back; later calls do nothing.
        func release() {
            let bytes = held.exchange(Self.released, ordering: .acquiringAndReleasing)
            if bytes != Self.released { budget.give(bytes) }
        }

        deinit { release() }
    }
}

/// The decisions of a ``ByteBudget`` as a value: the bytes in use, and the work waiting for them to drop back to
/// the limit. Called under the budget's lock; the work it hands back runs after the lock is released.
struct ByteBudgetState<Waiter> {
    /// The most bytes that may be held before new work waits.
    let limit: Int
    private(set) var used = 0
    private(set) var waiters: [Waiter] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// `true` while the bytes in use are within the limit.
    var isAvailable: Bool { used <= limit }

    /// `true`: run `waiter` now (within the limit); `false`: it waits for ``give(_:)`` to hand it back.
    mutating func whenAvailable(_ waiter: Waiter) -> Bool {
        guard !isAvailable else { return true }
        waiters.append(waiter)
        return false
    }

    mutating func add(_ bytes: Int) {
        used += bytes
    }

    /// Gives `bytes` back; returns the waiters to run, in the order they came, once the total is within the limit.
    mutating func give(_ bytes: Int) -> [Waiter] {
        used -= bytes
        guard used <= limit, !waiters.isEmpty else { return [] }
        defer { waiters = [] }
        return waiters
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
