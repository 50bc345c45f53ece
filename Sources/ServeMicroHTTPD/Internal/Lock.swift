import Foundation

/// A value behind an `NSLock` (ThreadSanitizer on Linux sees it, unlike `Synchronization.Mutex`).
final class LockedState<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
