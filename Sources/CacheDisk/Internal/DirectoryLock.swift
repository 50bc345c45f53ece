#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock(2)` on the cache's lock file, shared by every instance and process using the directory.
///
/// `flock` locks belong to an open file description, so two instances in one process exclude each other too
/// (unlike `fcntl` locks). If the directory was deleted, ``lock(creatingDirectory:)`` recreates it (or reports
/// it gone) and locks the new lock file: it checks after locking that the path still names the file it locked.
///
/// Owned by one ``DataCache`` and used from its serial queue only.
final class DirectoryLock {
    private let layout: DirectoryLayout
    private var fd: Int32 = -1

    init(layout: DirectoryLayout) {
        self.layout = layout
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Blocks until this instance holds the lock; returns `true` once it does.
    ///
    /// If the cache directory is gone, `creatingDirectory` decides: recreate it (for writes) or return `false`
    /// without locking (for bookkeeping, which must not bring back a directory someone deleted). Missing
    /// metadata inside an existing directory is always recreated.
    func lock(creatingDirectory: Bool) throws(DataCache.Error) -> Bool {
        for _ in 0..<8 {
            if fd < 0 {
                if !creatingDirectory, try FileSystem.status(layout.root) == nil { return false }
                try layout.createDirectories()
                fd = try FileSystem.openFile(layout.lock, O_RDWR | O_CREAT)
            }
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else { throw FileSystem.error("flock", layout.lock) }
            }
            let locked = try FileSystem.status(fd: fd, path: layout.lock)
            if let current = try FileSystem.status(layout.lock), FileIdentity(current) == FileIdentity(locked) {
                return true
            }
            // The lock file was deleted or replaced while it was open: start over with the one at the path.
            close(fd)
            fd = -1
        }
        throw FileSystem.error("flock", layout.lock, EAGAIN)
    }

    func unlock() {
        if fd >= 0 { flock(fd, LOCK_UN) }
    }
}
