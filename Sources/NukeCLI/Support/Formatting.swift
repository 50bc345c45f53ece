import Foundation

/// Human-readable numbers for reports.
enum Formatting {
    /// `1.2 MB`, `340 KB`, `12 B` (powers of 1024).
    static func bytes(_ count: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// `1.234 s` or `56 ms`.
    static func duration(_ seconds: Double) -> String {
        seconds >= 1 ? String(format: "%.3f s", seconds) : String(format: "%.0f ms", seconds * 1000)
    }

    /// A span of time for people: `45 s`, `10 min`, `1 h 30 min`, `2 d 3 h`.
    static func span(_ seconds: Double) -> String {
        let total = max(0, Int(seconds.rounded()))
        let (days, hours, minutes) = (total / 86_400, total / 3_600 % 24, total / 60 % 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if total >= 3_600 { return minutes > 0 ? "\(total / 3_600) h \(minutes) min" : "\(total / 3_600) h" }
        if total >= 60 { return total % 60 > 0 ? "\(minutes) min \(total % 60) s" : "\(minutes) min" }
        return "\(total) s"
    }

    /// The `fraction` (0…1) percentile of `values` (nearest rank), or `nil` when empty.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// Left-aligned label column for `label  value` report lines.
    static func row(_ label: String, _ value: String) -> String {
        "  " + label.padding(toLength: 20, withPad: " ", startingAt: 0) + value
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
