import NukeCore
/// Counts calls by key, thread-safe.
///
/// Give each test its own counter: counts are per instance, never process-wide, so tests can run in
/// parallel. Mocks that accept a counter increment it under a documented key.
public final class CallCounter: Sendable {
    private let counts = LockedValueBox<[String: Int]>([:])

    /// Creates a counter with every count at zero.
    public init() {}

    /// Adds one to the count of `key`.
    public func increment(_ key: String = "") {
        counts.withLock { $0[key, default: 0] += 1 }
    }

    /// The number of ``increment(_:)`` calls with `key` since creation or the last ``reset()``.
    public func count(_ key: String = "") -> Int {
        counts.withLock { $0[key] ?? 0 }
    }

    /// The sum of the counts of all keys.
    public var total: Int {
        counts.withLock { $0.values.reduce(0, +) }
    }

    /// Sets every count back to zero.
    public func reset() {
        counts.withLock { $0.removeAll() }
    }
}
