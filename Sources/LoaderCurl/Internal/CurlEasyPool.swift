import NukeCore

/// The easy handles of an engine's finished transfers, reset and kept for its next transfers: a new handle costs
/// `curl_easy_init` now and `curl_easy_cleanup` later, and its first transfer allocates (and faults in) curl's
/// receive buffer again — for a 50 KB image, several microseconds of the loop thread's time each.
///
/// Holds at most ``capacity`` idle handles; more are freed. Thread-safe: ``take()`` runs on the threads that call
/// `loadData`, ``recycle(_:)`` on the loop thread.
final class CurlEasyPool: Sendable {
    /// The most idle handles kept.
    let capacity: Int
    private let handles = LockedValueBox<[CurlEasy]>([])

    /// Creates an empty pool that keeps up to `capacity` idle handles.
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// An idle handle with default options, or a new one.
    func take() throws(CurlError) -> CurlEasy {
        if let easy = handles.withLock({ $0.popLast() }) { return easy }
        return try CurlEasy()
    }

    /// Resets `easy` and keeps it for a later ``take()``, or frees it when the pool is full. Call only when the
    /// handle is in no multi handle and its transfer is done with it.
    func recycle(_ easy: CurlEasy) {
        easy.reset()
        // A handle that isn't kept is freed by the caller's release, outside the lock.
        handles.withLock { handles in
            if handles.count < capacity { handles.append(easy) }
        }
    }

    /// The number of idle handles (for tests).
    var idleCount: Int { handles.withLock { $0.count } }
}
