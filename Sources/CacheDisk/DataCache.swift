public import Foundation
public import NukeCore

/// A least-recently-used disk cache for encoded image data: one file per key in a directory, safe across
/// threads, instances and processes.
///
/// ```swift
/// let cache = try DataCache(name: "com.example.images")   // ~/.cache/com.example.images
/// cache.sizeLimit = 500 << 20
/// let pipeline = ImagePipeline { $0.dataCache = cache }
/// ```
///
/// ## Writes
/// ``storeData(_:for:)`` returns immediately: the change is staged in memory and written by a background
/// queue (to a temporary file, then renamed into place). Reads and ``containsData(for:)`` see staged changes,
/// removals included. ``flush()`` waits until everything staged so far is on disk.
///
/// Staged changes hold at most ``stagingLimit`` bytes (64 MB by default). When writes come faster than the disk
/// takes them, a write that would go over it makes its caller wait and write what is staged itself: memory stays
/// bounded and no write is dropped.
///
/// ## Size
/// ``totalSize`` and ``sizeLimit`` count the bytes of stored data, as in Nuke. After a flush pushes ``totalSize``
/// over ``sizeLimit``, the cache removes expired entries and then the least recently used ones (by the order of
/// reads and writes the cache records itself, not file access times) until the total is at most 70 % of the
/// limit. Every ``sweepInterval`` seconds (while ``isSweepEnabled``) a background ``sweep()`` also removes expired
/// entries and files that vanished. ``totalAllocatedSize`` is what the files really occupy on disk.
///
/// ## Integrity
/// By default a file name is the SHA-256 of its key, so keys never share an entry or escape the directory (see
/// ``FilenameGenerator`` for custom names). Keys that are equal as Swift `String`s (canonically equivalent Unicode)
/// are the same key: they are normalized to NFC. The empty key is never stored. Each file records its key, its
/// length and a checksum; a read returns only an intact entry for the requested key. A torn or corrupted file is a
/// miss and is removed; another key's file is a miss. Entries are not `fsync`ed: after a power loss, recent
/// entries may be lost, never returned wrong. ``url(for:)`` hands out a verified exact copy of an entry's data.
///
/// ## Sharing a directory
/// Any number of instances, in any number of processes, can use the same directory. Changes to the set of
/// entries are made under an exclusive `flock(2)` and logged in a shared journal, which every instance
/// replays to keep sizes and access order current; an instance created later sees everything flushed before.
///
/// ## Failures
/// If the directory is deleted while the cache runs, reads miss and the totals drop to zero; the next write
/// recreates it (bookkeeping such as recording reads never does). If it cannot be written
/// (say a file sits where the directory was), writes are dropped, reads miss, and ``lastError`` says why;
/// nothing traps.
///
/// Every method is safe to call from any thread.
public final class DataCache: DataCaching, Sendable {
    /// The default ``sizeLimit``: 150 MB.
    public static let defaultSizeLimit = 150 * 1024 * 1024

    /// The default ``stagingLimit``: 64 MB.
    public static let defaultStagingLimit = 64 * 1024 * 1024

    /// The fraction of ``sizeLimit`` a sweep trims the cache to.
    static let trimRatio = 0.7

    /// The cache directory.
    public let path: URL

    /// The serial queue the cache's disk work runs on: background and explicit flushes, sweeps (periodic and
    /// explicit), trims after ``sizeLimit`` changes, removals of damaged or expired entries, recording reads, and
    /// making the files of ``url(for:)``.
    ///
    /// Blocks submitted to it run after the work already queued (`queue.async { … }` is a way to wait for the
    /// background writes scheduled so far without forcing a flush). Keep such blocks short, and never call
    /// ``flush()``, ``sweep()``, ``url(for:)``, ``totalSize``, ``totalCount`` or ``totalAllocatedSize`` from one:
    /// they wait on this queue and would deadlock.
    public let queue: DispatchQueue

    /// Makes the name of each key's file; see ``FilenameGenerator``.
    let filenameGenerator: FilenameGenerator
    let layout: DirectoryLayout
    /// The root directory held open, for reads (see ``DirectoryHandle``).
    let rootDirectory: DirectoryHandle
    let state: LockedValueBox<State>
    /// What a hit records, behind a lock of its own: a hit takes the state lock once, before reading the file, and
    /// this one once, after.
    let accesses = LockedValueBox(Accesses())
    let disk: Disk
    /// The wall clock in nanoseconds since 1970; injectable for expiry tests.
    let clock: @Sendable () -> Int64

    struct State {
        var staging = Staging()
        var index = CacheIndex()
        var isFlushScheduled = false
        /// Test hook: while set, staged changes wait for an explicit ``DataCache/flush()``.
        var isBackgroundFlushPaused = false
        var sizeLimit = DataCache.defaultSizeLimit
        var stagingLimit = DataCache.defaultStagingLimit
        var statistics = Statistics()
        var lastError: Error?
        /// Entry file names other than the default (hexadecimal) ones, by digest, for finding the file of an
        /// entry known only from the journal.
        var customNames: [KeyDigest: String] = [:]
        var sweepInterval: TimeInterval = DataCache.defaultSweepInterval
        var isSweepEnabled = true
        /// Bumped when the sweep schedule changes: a scheduled sweep of an older generation does nothing.
        var sweepGeneration = 0
        /// Periodic sweeps run so far (a test hook).
        var periodicSweepCount = 0

    }

    /// Reads not yet in the journal, the hits counted, and the instance's clock for writes and reads.
    struct Accesses {
        /// Reads not yet in the journal, oldest first (times only grow, see ``timestamp(_:)``); a digest may repeat,
        /// the last time wins. An array, so that a hit appends instead of hashing. The index learns of them when
        /// they are committed, or first when a trim or a journal rewrite needs the order.
        private(set) var pending: [(digest: KeyDigest, time: Int64)] = []
        /// ``pending`` is compacted to one record per digest when it reaches this many: the commit asked for at
        /// ``urgentCommitCount`` is late (the queue is busy with a long flush or sweep).
        private var compactionThreshold = 4 * Accesses.urgentCommitCount
        /// A commit is asked for at once when this many reads are pending, rather than a second after the first.
        static let urgentCommitCount = 65_536
        /// A commit a second after the first pending read is scheduled.
        var isCommitScheduled = false
        /// A commit as soon as the queue gets to it is scheduled.
        private var isUrgentCommitScheduled = false
        var hitCount = 0
        private var lastTimestamp: Int64 = 0

        /// The wall clock, made strictly increasing so writes and reads within this instance are totally ordered.
        mutating func timestamp(_ now: Int64) -> Int64 {
            lastTimestamp = max(now, lastTimestamp + 1)
            return lastTimestamp
        }

        /// When the caller of ``recordHit(of:now:)`` is to schedule a commit of the pending reads.
        enum Commit {
            case alreadyScheduled
            case inOneSecond
            case now
        }

        /// Records a hit of `digest` now, and says whether the caller is to schedule the commit.
        mutating func recordHit(of digest: KeyDigest, now: Int64) -> Commit {
            hitCount += 1
            pending.append((digest, timestamp(now)))
            if pending.count >= compactionThreshold {
                pending = DataCache.latestAccesses(pending).map { ($0.key, $0.value) }.sorted { $0.time < $1.time }
                compactionThreshold = max(4 * Accesses.urgentCommitCount, 2 * pending.count)
            }
            if pending.count >= Accesses.urgentCommitCount && !isUrgentCommitScheduled {
                isUrgentCommitScheduled = true
                return .now
            }
            guard !isCommitScheduled else { return .alreadyScheduled }
            isCommitScheduled = true
            return .inOneSecond
        }

        /// Hands over the pending reads and forgets them.
        mutating func takePending() -> [(digest: KeyDigest, time: Int64)] {
            isUrgentCommitScheduled = false
            defer { pending.removeAll() }
            return pending
        }
    }

    /// Opens (creating it if needed) a cache in a directory called `name` in the user's cache directory:
    /// `$XDG_CACHE_HOME/name` if `XDG_CACHE_HOME` is an absolute path, else `~/.cache/name`.
    ///
    /// - Parameters:
    ///   - name: The directory's name: a single path component.
    ///   - filenameGenerator: names each key's file; the default is ``filename(for:)-type.method``, the SHA-256 of
    ///     the key. See ``FilenameGenerator``.
    /// - Throws: ``Error/invalidName(_:)`` unless `name` is a single path component; otherwise as
    ///   ``init(path:filenameGenerator:)``.
    public convenience init(
        name: String, filenameGenerator: @escaping FilenameGenerator = DataCache.filename(for:)
    ) throws {
        try self.init(
            path: DataCache.directory(forName: name, environment: ProcessInfo.processInfo.environment),
            filenameGenerator: filenameGenerator)
    }

    /// Opens (creating it if needed) a cache in the directory at `path`, loads its index, and schedules the
    /// periodic sweep (see ``sweepInterval``).
    ///
    /// Other instances, in this or other processes, may use the same directory at the same time; they should use
    /// the same `filenameGenerator`.
    ///
    /// - Parameters:
    ///   - path: The cache's directory, a `file:` URL.
    ///   - filenameGenerator: names each key's file; the default is ``filename(for:)-type.method``, the SHA-256 of
    ///     the key. See ``FilenameGenerator``.
    /// - Throws: ``Error/notAFileURL(_:)``, ``Error/notADirectory(path:)`` if a file is in the way, or
    ///   ``Error/fileSystem(operation:path:errno:)`` if the directory cannot be created, locked or read.
    public convenience init(
        path: URL, filenameGenerator: @escaping FilenameGenerator = DataCache.filename(for:)
    ) throws {
        try self.init(path: path, filenameGenerator: filenameGenerator, clock: FileSystem.wallClockNanoseconds)
    }

    init(
        path: URL, filenameGenerator: @escaping FilenameGenerator = DataCache.filename(for:),
        clock: @escaping @Sendable () -> Int64
    ) throws {
        guard path.isFileURL else { throw Error.notAFileURL(path) }
        let standardized = path.standardizedFileURL
        var root = standardized.path
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.path = standardized
        self.clock = clock
        self.filenameGenerator = filenameGenerator
        layout = DirectoryLayout(root: root)
        state = LockedValueBox(State())
        queue = DispatchQueue(label: "Nuke.DataCache", qos: .utility)
        disk = Disk(layout: layout)
        try layout.createDirectories()
        rootDirectory = DirectoryHandle(path: root)
        try queue.sync { try self.open() }
        scheduleSweep()
    }

    static func directory(forName name: String, environment: [String: String]) throws -> URL {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw Error.invalidName(name)
        }
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            base = home + "/.cache"
        } else {
            throw Error.cacheDirectoryUnknown
        }
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }

    // MARK: Limits and totals

    /// The size the cache trims itself under, in bytes of stored data like ``totalSize`` (default
    /// ``defaultSizeLimit``).
    ///
    /// When a flush leaves ``totalSize`` above it, the cache evicts down to 70 % of it. Lowering it schedules
    /// a trim. Data larger than the limit on its own is not stored. The files take a little more room than the
    /// data (a 64-byte header and the key each, plus block rounding, plus ``url(for:)``'s copies): see
    /// ``totalAllocatedSize``.
    public var sizeLimit: Int {
        get { state.withLock { $0.sizeLimit } }
        set {
            let shouldTrim = state.withLock { state in
                state.sizeLimit = newValue
                return state.index.totalSize > Int64(newValue)
            }
            if shouldTrim { queue.async { self.trimInBackground() } }
        }
    }

    /// The most memory staged changes may hold, in bytes of keys and payloads (default ``defaultStagingLimit``).
    ///
    /// A ``storeData(_:for:)`` or ``removeData(for:)`` that would go over it applies back-pressure: its caller
    /// waits for the flush in progress, if any, writes what is staged on its own thread, and then stages its
    /// change, so it returns later but nothing is dropped. A single change larger than the limit is written to
    /// disk by its caller before `storeData` returns, without being staged. Lowering the limit frees nothing at
    /// once; the next change that doesn't fit waits.
    public var stagingLimit: Int {
        get { state.withLock { $0.stagingLimit } }
        set { state.withLock { $0.stagingLimit = max(0, newValue) } }
    }

    /// The total size of the data stored in the directory, in bytes (the sum of the stored `Data` counts, without
    /// the entry files' headers), as of the last flush by any instance.
    ///
    /// Brings the index up to date with the shared journal first; staged writes are not counted. Blocks while
    /// ``queue`` finishes the work queued before it.
    public var totalSize: Int {
        synchronizedIndex { Int($0.totalSize) }
    }

    /// The number of entries in the directory, as of the last flush by any instance; staged writes are not
    /// counted.
    public var totalCount: Int {
        synchronizedIndex { $0.count }
    }

    /// What this instance did since it was created.
    public var statistics: Statistics {
        var statistics = state.withLock { $0.statistics }
        statistics.hitCount += accesses.withLock { $0.hitCount }
        return statistics
    }

    /// The most recent failure of background work (a write, removal or sweep), if any. Not cleared by later
    /// successes.
    public var lastError: Error? {
        state.withLock { $0.lastError }
    }

    // MARK: Test hooks

    /// The bytes staged changes hold in memory now, and the most they held since the cache was created.
    var stagedByteCount: (current: Int, peak: Int) {
        state.withLock { ($0.staging.byteCount, $0.staging.peakByteCount) }
    }

    /// While `true`, staged changes stay in memory until ``flush()`` or ``flush(for:)`` (tests use it to
    /// observe staging).
    var isBackgroundFlushPaused: Bool {
        get { state.withLock { $0.isBackgroundFlushPaused } }
        set {
            state.withLock { $0.isBackgroundFlushPaused = newValue }
            if !newValue { scheduleFlush() }
        }
    }
}
