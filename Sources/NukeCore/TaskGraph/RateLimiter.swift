import Foundation

/// A token bucket that paces the start of loads: up to `burst` loads start at once, then `rate` a second.
///
/// Work that can't start yet waits in order and runs as tokens refill. A work item returns `false` if it no
/// longer needs to run (its task was cancelled meanwhile), which gives its token back. Used by the pipeline's
/// mailbox (its timer posts there); time and the timer are injected so tests control them.
final class RateLimiter: @unchecked Sendable {
    // @unchecked: used only by the jobs of its pipeline's mailbox, one at a time.
    typealias Work = () -> Bool

    private let rate: Double
    private let burst: Double
    private let now: @Sendable () -> Double
    private let schedule: @Sendable (_ delay: Double, _ body: @escaping @Sendable () -> Void) -> Void
    private var tokens: Double
    private var lastRefill: Double
    private var pending: [Work] = []
    private var pendingHead = 0
    private var isTimerScheduled = false

    /// - Parameters:
    ///   - rate: Tokens added per second.
    ///   - burst: The bucket size: how many loads may start at once after a quiet period.
    ///   - now: The current time in seconds (monotonic).
    ///   - schedule: Runs a closure as a mailbox job after a delay in seconds.
    init(
        rate: Double = 80,
        burst: Double = 25,
        now: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds,
        schedule: @escaping @Sendable (Double, @escaping @Sendable () -> Void) -> Void
    ) {
        self.rate = rate
        self.burst = burst
        self.now = now
        self.schedule = schedule
        self.tokens = burst
        self.lastRefill = now()
    }

    /// Runs `work` now if a token is available and nothing is waiting, else when its turn comes.
    func execute(_ work: @escaping Work) {
        if pendingCount == 0, takeToken() {
            if !work() { tokens += 1 }  // Not needed after all: give the token back.
            return
        }
        pending.append(work)
        scheduleDrain()
    }

    /// The number of work items waiting for a token.
    var pendingCount: Int { pending.count - pendingHead }

    private func takeToken() -> Bool {
        refill()
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    private func refill() {
        let time = now()
        tokens = min(burst, tokens + max(0, time - lastRefill) * rate)
        lastRefill = time
    }

    private func drain() {
        isTimerScheduled = false
        while pendingHead < pending.count, takeToken() {
            let work = pending[pendingHead]
            pendingHead += 1
            if !work() { tokens += 1 }
        }
        if pendingHead == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingHead = 0
        } else {
            if pendingHead > 64 {
                pending.removeFirst(pendingHead)
                pendingHead = 0
            }
            scheduleDrain()
        }
    }

    private func scheduleDrain() {
        guard !isTimerScheduled else { return }
        isTimerScheduled = true
        let delay = max(0, (1 - tokens) / rate)
        schedule(delay) { [weak self] in self?.drain() }
    }

    /// Seconds on a monotonic clock.
    static func monotonicSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
