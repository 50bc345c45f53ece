extension ImageRequest {
    /// The priority of a request.
    ///
    /// The priority of shared work is the highest priority among the requests that wait for it.
    /// Queued work starts in priority order (first in, first out within a priority).
    public enum Priority: Int, Comparable, CaseIterable, Sendable {
        case veryLow = 0
        case low
        case normal
        case high
        case veryHigh

        public static func < (lhs: Priority, rhs: Priority) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }
}

extension ImageRequest.Priority {
    /// The matching Swift concurrency priority, used for work that runs off the pipeline.
    var taskPriority: TaskPriority {
        switch self {
        case .veryLow: .background
        case .low: .utility
        case .normal: .medium
        case .high, .veryHigh: .high
        }
    }
}
