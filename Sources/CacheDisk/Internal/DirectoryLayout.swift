#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a cache keeps its files.
///
/// - `<root>/<64 hex digits>`: one file per entry, named by the SHA-256 of its key;
/// - `<root>/.datacache/lock`: `flock(2)`ed by whoever changes the set of entries or the journal;
/// - `<root>/.datacache/journal`: the shared log of changes (``Journal``);
/// - `<root>/.datacache/tmp/`: files being written, renamed into place when complete.
///
/// Other names in `<root>` are left alone.
struct DirectoryLayout: Sendable {
    let root: String
    let meta: String
    let temporary: String
    let lock: String
    let journal: String

    init(root: String) {
        self.root = root
        meta = root + "/.datacache"
        temporary = meta + "/tmp"
        lock = meta + "/lock"
        journal = meta + "/journal"
    }

    func entryPath(_ digest: KeyDigest) -> String {
        root + "/" + digest.fileName
    }

    /// Creates the root, metadata and temporary directories where missing.
    func createDirectories() throws(DataCache.Error) {
        var prefix = ""
        for component in root.split(separator: "/") {
            prefix += "/" + component
            try FileSystem.makeDirectory(prefix)
        }
        try FileSystem.makeDirectory(meta)
        try FileSystem.makeDirectory(temporary)
    }

    /// Removes temporary files left by processes that died while writing, and any older than an hour.
    func removeStaleTemporaryFiles(now: Int64) {
        guard let names = try? FileSystem.contentsOfDirectory(temporary) else { return }
        let ourPID = getpid()
        for name in names {
            let path = temporary + "/" + name
            let pid = name.split(separator: ".").first.flatMap { pid_t($0) }
            let isOrphan = pid.map { $0 != ourPID && kill($0, 0) != 0 && errno == ESRCH } ?? true
            var isOld = false
            if let status = try? FileSystem.status(path) {
                isOld = now - FileSystem.modificationNanoseconds(status) > 3_600 * 1_000_000_000
            }
            if isOrphan || isOld { unlink(path) }
        }
    }
}
