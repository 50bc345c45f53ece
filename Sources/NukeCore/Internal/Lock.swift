#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex. ThreadSanitizer understands it, unlike `Synchronization.Mutex` on Linux.
///
/// The mutex lives in the object itself (a `ManagedBuffer` with one element), so a lock is one allocation.
/// `ManagedBuffer` can't be `Sendable`, so neither is a lock: it is held by the `@unchecked Sendable` boxes it
/// protects (``LockedValueBox`` and the like), which is where its thread safety is stated.
final class Lock: ManagedBuffer<Void, pthread_mutex_t> {

    /// Makes an unlocked mutex.
    static func make() -> Lock {
        let lock = unsafeDowncast(Lock.create(minimumCapacity: 1) { _ in () }, to: Lock.self)
        lock.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let error = pthread_mutex_init(mutex, nil)
            precondition(error == 0, "pthread_mutex_init failed: \(error)")
        }
        return lock
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            let error = pthread_mutex_destroy(mutex)
            precondition(error == 0, "pthread_mutex_destroy failed: \(error) (a lock destroyed while held?)")
            _ = mutex.deinitialize(count: 1)
        }
    }

    /// Locks the mutex; a failure (a corrupt or destroyed mutex) stops the process rather than run unprotected.
    @inline(__always)
    func lock() {
        let error = withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
        precondition(error == 0, "pthread_mutex_lock failed: \(error)")
    }

    @inline(__always)
    func unlock() {
        let error = withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
        precondition(error == 0, "pthread_mutex_unlock failed: \(error)")
    }

    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
