#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a cache keeps its files.
///
/// - `<root>/<name>`: one file per entry, named by the cache's filename generator (by default the 64 hexadecimal
///   digits of the SHA-256 of its key; see ``EntryName``);
/// - `<root>/.datacache/lock`: `flock(2)`ed by whoever changes the set of entries or the journal;
/// - `<root>/.datacache/journal`: the shared log of changes (``Journal``);
/// - `<root>/.datacache/tmp/`: files being written, renamed into place when complete;
/// - `<root>/.datacache/files/<name>`: exact copies of entries' data handed out by `DataCache.url(for:)`, each
///   removed before its entry is replaced or removed.
///
/// Other names in `<root>` are left alone.
struct DirectoryLayout: Sendable {
    let root: String
    let meta: String
    let temporary: String
    let exports: String
    let lock: String
    let journal: String

    init(root: String) {
        self.root = root
        meta = root + "/.datacache"
        temporary = meta + "/tmp"
        exports = meta + "/files"
        lock = meta + "/lock"
        journal = meta + "/journal"
    }

    func entryPath(_ fileName: String) -> String {
        root + "/" + fileName
    }

    /// Where `DataCache.url(for:)` puts the exact copy of the data of the entry called `fileName`.
    func exportPath(_ fileName: String) -> String {
        exports + "/" + fileName
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
        try FileSystem.makeDirectory(exports)
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
