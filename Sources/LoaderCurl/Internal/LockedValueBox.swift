#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value protected by a pthread mutex, in the spirit of NIO's `NIOLockedValueBox`.
///
/// ThreadSanitizer understands pthread mutexes on Linux (unlike `Synchronization.Mutex`). Take what you need
/// inside ``withLock(_:)`` and call out (user closures, curl) after it returns. Not recursive.
final class LockedValueBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written while `mutex` is held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// A copy of the current value.
    var snapshot: Value { withLock { $0 } }
}
