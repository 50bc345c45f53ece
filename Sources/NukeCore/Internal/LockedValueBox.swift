/// A value protected by a pthread mutex, in the spirit of NIO's `NIOLockedValueBox`: the shared-state box of the
/// core and of the plugins, and available to third-party plugins.
///
/// Take what you need inside ``withLock(_:)`` and call out (user closures, continuations) after it returns.
/// Built on a pthread mutex rather than `Synchronization.Mutex`, which ThreadSanitizer on Linux doesn't understand.
public final class LockedValueBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written while `lock` is held.
    private let lock = Lock.make()
    private var value: Value

    /// Creates a box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Don't call back into the box from `body`.
    @inline(__always)
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }

    /// A copy of the current value.
    public var snapshot: Value { withLock { $0 } }
}
