import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The cache directory, held open so that a read opens its entry file relative to it (`openat(2)`) instead of
/// walking every component of the path again: on a hit that is about a tenth of the kernel's `open`.
///
/// The directory may be deleted or replaced behind the cache's back (the cache then recreates it at its path). An
/// open relative to the old directory then fails with `ENOENT`; before reporting a missing file, the handle checks
/// that the directory at the path is still the one it holds, and if not it opens by path from then on. (An old
/// directory moved elsewhere, with its files, still answers until the first miss.)
///
/// ## Contract
/// Thread-safe. The descriptor is closed only when the handle is freed.
final class DirectoryHandle: Sendable {
    /// The directory's path, for opening by path and for errors.
    let path: String
    /// A read-only descriptor of the directory; -1 if it could not be opened, when every open goes by path.
    private let descriptor: Int32
    /// Set once the directory at `path` is no longer the one `descriptor` refers to.
    private let isReplaced = Atomic<Bool>(false)

    init(path: String) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Opens the file `name` in the directory read-only; throws `.fileSystem("open", …)` with the file's path as
    /// `open(2)` would for that path.
    func openForReading(_ name: String) throws(DataCache.Error) -> Int32 {
        if descriptor >= 0, !isReplaced.load(ordering: .relaxed) {
            while true {
                let fd = openat(descriptor, name, O_RDONLY | O_CLOEXEC)
                if fd >= 0 { return fd }
                let code = errno
                if code == EINTR { continue }
                guard code == ENOENT, !isStillTheDirectory() else {
                    throw FileSystem.error("open", path + "/" + name, code)
                }
                isReplaced.store(true, ordering: .relaxed)
                break
            }
        }
        return try FileSystem.openFile(path + "/" + name, O_RDONLY)
    }

    /// Whether the directory at `path` is the one the descriptor refers to (same device and inode, not deleted).
    private func isStillTheDirectory() -> Bool {
        var held = stat()
        var current = stat()
        guard fstat(descriptor, &held) == 0, held.st_nlink > 0 else { return false }
        guard stat(path, &current) == 0 else {
            // Nothing at the path (or it can't be seen): opening by path finds nothing either.
            return true
        }
        return held.st_dev == current.st_dev && held.st_ino == current.st_ino
    }
}
