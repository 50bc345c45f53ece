/// Continuations waiting for a counter to reach a threshold. Not thread-safe: keep it inside a `LockedValueBox`.
struct CountWaiters {
    private var waiters: [(threshold: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Adds a waiter that is resumed once the counter reaches `threshold`.
    mutating func append(threshold: Int, _ continuation: CheckedContinuation<Void, Never>) {
        waiters.append((threshold, continuation))
    }

    /// Removes and returns the continuations whose threshold is `count` or less; resume them outside the lock.
    mutating func removeReady(count: Int) -> [CheckedContinuation<Void, Never>] {
        var ready: [CheckedContinuation<Void, Never>] = []
        waiters.removeAll { waiter in
            guard waiter.threshold <= count else { return false }
            ready.append(waiter.continuation)
            return true
        }
        return ready
    }
}
