import Dispatch
import Foundation

/// The request's `timeoutInterval` as an idle timeout: expires when no byte moved for that long. The clock
/// starts at curl's first progress report, so time spent queued for a connection doesn't count.
struct IdleTimeout {
    let interval: TimeInterval
    private var lastActivity: UInt64?
    private var downloaded: Int64 = -1
    private var uploaded: Int64 = -1

    init(interval: TimeInterval) {
        self.interval = interval
    }

    mutating func recordActivity() {
        lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    mutating func isExpired(downloaded: Int64, uploaded: Int64) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if lastActivity == nil || downloaded != self.downloaded || uploaded != self.uploaded {
            self.downloaded = downloaded
            self.uploaded = uploaded
            if downloaded > 0 || uploaded > 0 || lastActivity == nil { lastActivity = now }
        }
        guard let lastActivity else { return false }
        return Double(now &- lastActivity) / 1e9 >= interval
    }
}
