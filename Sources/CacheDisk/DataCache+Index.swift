import NukeCore
import Foundation

extension DataCache {
    /// Loads the index under the directory lock and removes temporary files of dead processes. Runs on `queue`.
    func open() throws {
        try withDirectoryLock(creatingDirectory: true) {
            layout.removeStaleTemporaryFiles(now: clock())
            try compactJournalIfNeeded()
        }
    }

    /// Runs `body` holding the directory lock, after bringing the index up to date with the journal. Runs on
    /// `queue`.
    ///
    /// If the directory is gone and `creatingDirectory` is `false`, the index is emptied (the entries went with
    /// the directory) and `body` is not run: `nil`.
    @discardableResult
    func withDirectoryLock<T>(creatingDirectory: Bool = false, _ body: () throws -> T) throws -> T? {
        guard try disk.lock.lock(creatingDirectory: creatingDirectory) else {
            state.withLock { $0.index.removeAll() }
            return nil
        }
        defer { disk.lock.unlock() }
        try synchronizeIndex()
        return try body()
    }

    /// `body` applied to the index after bringing it up to date with the journal (or to the index as it is, if
    /// the directory can't be locked).
    func synchronizedIndex<T>(_ body: (CacheIndex) -> T) -> T {
        queue.sync { recordingFailure { try withDirectoryLock {} } }
        return state.withLock { body($0.index) }
    }

    var isOverLimit: Bool {
        state.withLock { $0.index.totalSize > Int64($0.sizeLimit) }
    }

    /// Appends `records` to the journal and applies them to the index. Call with the directory lock held.
    func commit(_ records: [JournalRecord]) throws {
        guard !records.isEmpty else { return }
        try disk.journal.append(records)
        state.withLock { state in
            for record in records { state.index.apply(record) }
        }
    }

    private func synchronizeIndex() throws {
        switch try disk.journal.readNewRecords() {
        case .appended(let records, let isTorn):
            state.withLock { state in
                for record in records { state.index.apply(record) }
            }
            if isTorn { try reconcileWithDirectory(rebuild: false) }
        case .replaced(let records, let isTorn):
            let reads = pendingReads
            state.withLock { state in
                state.index.removeAll()
                for record in records { state.index.apply(record) }
                state.index.touch(reads)
            }
            if isTorn { try reconcileWithDirectory(rebuild: false) }
        case .missing:
            try reconcileWithDirectory(rebuild: true)
        }
    }

    /// Makes the index match the entry files in the directory: forgets entries whose file is gone, adds files it
    /// doesn't know (reading their headers; access time = modification time), removes files with default
    /// (hexadecimal) names that are not intact entries, and removes ``url(for:)`` copies whose entry is gone.
    /// Files with other names are entries only if their header is an entry's; otherwise they are left alone. With
    /// `rebuild`, starts from an empty index and writes a new journal. Call with the directory lock held.
    func reconcileWithDirectory(rebuild: Bool) throws {
        if rebuild { state.withLock { $0.index.removeAll() } }
        let known = state.withLock { $0.index.entries }
        let names = try FileSystem.contentsOfDirectory(layout.root) ?? []
        var present = Set<KeyDigest>()
        present.reserveCapacity(names.count)
        var records: [JournalRecord] = []
        for fileName in names {
            guard let name = EntryName(fileName: fileName) else { continue }
            let digest = name.digest
            if known[digest] != nil {
                present.insert(digest)
                if !name.isDefault { state.withLock { $0.customNames[digest] = fileName } }
                continue
            }
            let path = layout.entryPath(fileName)
            if let (header, status) = EntryFile.readHeader(at: path) {
                present.insert(digest)
                if !name.isDefault { state.withLock { $0.customNames[digest] = fileName } }
                records.append(
                    JournalRecord(
                        kind: .add, digest: digest, size: Int64(header.payloadLength),
                        time: FileSystem.modificationNanoseconds(status), expiry: header.expiry))
            } else if name.isDefault, let status = try FileSystem.status(path), !FileSystem.isDirectory(status) {
                try removeEntryFile(fileName)
            }
        }
        for digest in known.keys where !present.contains(digest) {
            records.append(JournalRecord(kind: .remove, digest: digest))
        }
        for fileName in try FileSystem.contentsOfDirectory(layout.exports) ?? [] {
            if let name = EntryName(fileName: fileName), present.contains(name.digest) { continue }
            try FileSystem.removeFile(layout.exportPath(fileName))
        }
        if rebuild {
            state.withLock { state in
                for record in records { state.index.apply(record) }
            }
            try rewriteJournal()  // applies the pending reads first
        } else {
            try commit(records)
        }
    }

    /// Evicts expired entries and, unless `expiredOnly`, least-recently-used ones down to 70 % of the limit.
    /// Call with the directory lock held.
    func trim(expiredOnly: Bool) throws {
        let now = clock()
        let reads = pendingReads
        let victims = state.withLock { state in
            // Reads not committed yet count: an entry just read is not the least recently used.
            state.index.touch(reads)
            let target = expiredOnly ? Int64.max : Int64(Double(state.sizeLimit) * DataCache.trimRatio)
            return state.index.victims(targetSize: target, now: now)
        }
        guard !victims.isEmpty else { return }
        var records: [JournalRecord] = []
        var bytes = 0
        for victim in victims {
            if let name = try entryName(for: victim.digest) {
                try removeEntryFile(name.fileName)
            } else {
                // The entry file is gone already; its exported copy (default name) must not outlive it.
                try FileSystem.removeFile(layout.exportPath(EntryName(digest: victim.digest).fileName))
            }
            records.append(JournalRecord(kind: .remove, digest: victim.digest))
            bytes += Int(victim.entry.size)
        }
        try commit(records)
        state.withLock { state in
            state.statistics.evictionCount += victims.count
            state.statistics.bytesEvicted += bytes
        }
    }

    /// Removes every entry file in the directory (files with default names, and files with other names that
    /// the index knows or whose header is an entry's) and every ``url(for:)`` copy. Call with the directory lock
    /// held.
    func removeAllEntryFiles() throws {
        for fileName in try FileSystem.contentsOfDirectory(layout.exports) ?? [] {
            try FileSystem.removeFile(layout.exportPath(fileName))
        }
        let known = state.withLock { $0.index.entries }
        for fileName in try FileSystem.contentsOfDirectory(layout.root) ?? [] {
            guard let name = EntryName(fileName: fileName) else { continue }
            let path = layout.entryPath(fileName)
            guard let status = try FileSystem.status(path), !FileSystem.isDirectory(status) else { continue }
            if name.isDefault || known[name.digest] != nil || EntryFile.readHeader(at: path) != nil {
                try FileSystem.removeFile(path)
            }
        }
    }

    /// Rewrites the journal as one record per entry once it holds many more records than entries.
    func compactJournalIfNeeded() throws {
        let count = state.withLock { $0.index.count }
        if disk.journal.recordCount > 2 * count + 4096 { try rewriteJournal() }
    }

    /// The reads not committed to the journal yet, which the index learns of before it orders entries (a trim, a
    /// journal rewrite, an index replaced from the journal). Taken before the state lock: the two are never nested.
    private var pendingReads: [(digest: KeyDigest, time: Int64)] { accesses.withLock { $0.pending } }

    private func rewriteJournal() throws {
        let reads = pendingReads
        let records = state.withLock { state in
            state.index.touch(reads)
            return state.index.snapshotRecords
        }
        try disk.journal.rewrite(records, temporaryPath: disk.makeTemporaryPath())
    }
}
