import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The request's `timeoutInterval` as an idle timeout: expires when no byte moved for that long. The clock
/// starts at curl's first progress report, so time spent queued for a connection doesn't count.
///
/// Time comes from the coarse monotonic clock (a few milliseconds of resolution, a fraction of the cost of the
/// precise one): it's read on every header line and progress report of every transfer, and the timeout is
/// checked to the second anyway.
struct IdleTimeout {
    let interval: TimeInterval
    private var lastActivity: UInt64?
    private var downloaded: Int64 = -1
    private var uploaded: Int64 = -1

    init(interval: TimeInterval) {
        self.interval = interval
    }

    mutating func recordActivity() {
        lastActivity = Self.now()
    }

    mutating func isExpired(downloaded: Int64, uploaded: Int64) -> Bool {
        let now = Self.now()
        if lastActivity == nil || downloaded != self.downloaded || uploaded != self.uploaded {
            self.downloaded = downloaded
            self.uploaded = uploaded
            if downloaded > 0 || uploaded > 0 || lastActivity == nil { lastActivity = now }
        }
        guard let lastActivity else { return false }
        return Double(now &- lastActivity) / 1e9 >= interval
    }

    /// Nanoseconds on the coarse monotonic clock.
    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
