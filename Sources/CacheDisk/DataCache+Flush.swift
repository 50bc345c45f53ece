import NukeCore
import Foundation

extension DataCache {
    /// Writes everything staged so far to disk; returns when it is there (or failed, see ``lastError``).
    ///
    /// Also records recent reads in the shared journal, so other instances see the access order. Blocks the
    /// calling thread; don't call it from a cooperative-pool task that must not block for long.
    public func flush() {
        queue.sync { performFlush(for: nil) }
    }

    /// Writes the staged change for `key`, if any, to disk and returns when it is there. Changes to other keys
    /// stay staged, unless a ``removeAll()`` is staged: then everything is flushed, in order.
    public func flush(for key: String) {
        let key = DataCache.canonicalKey(key)
        queue.sync { performFlush(for: key) }
    }

    /// Flushes, then brings the index in line with the directory (picking up or forgetting files that appeared
    /// or vanished without a journal record), removes expired entries, and — if ``totalSize`` is over
    /// ``sizeLimit`` — evicts least-recently-used entries down to 70 % of the limit. Returns when done.
    ///
    /// Trimming also happens on its own after a flush goes over the limit; call this to force it.
    public func sweep() {
        queue.sync { performSweep() }
    }

    /// The body of ``sweep()``. Runs on `queue`.
    func performSweep() {
        performFlush(for: nil)
        recordingFailure {
            try withDirectoryLock {
                try reconcileWithDirectory(rebuild: false)
                try trim(expiredOnly: !isOverLimit)
            }
        }
    }

    // MARK: Scheduling

    func scheduleFlush() {
        let shouldSchedule = state.withLock { state in
            guard !state.isFlushScheduled, !state.isBackgroundFlushPaused, !state.staging.isEmpty else {
                return false
            }
            state.isFlushScheduled = true
            return true
        }
        if shouldSchedule {
            // Captures `self` strongly: staged data is written even if the app drops the cache right away.
            queue.async { self.backgroundFlush() }
        }
    }

    private func backgroundFlush() {
        let isPaused = state.withLock { state in
            state.isFlushScheduled = false
            return state.isBackgroundFlushPaused
        }
        if !isPaused { performFlush(for: nil) }
    }

    /// Writes pending reads to the journal a second after the first one, batching the ones in between.
    func scheduleAccessCommit() {
        queue.asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self else { return }
            self.accesses.withLock { $0.isCommitScheduled = false }
            self.performFlush(for: nil)
        }
    }

    func trimInBackground() {
        recordingFailure {
            try withDirectoryLock { try trim(expiredOnly: false) }
        }
    }

    /// Removes the entry file `name` in the background if it is still the file that was read (`identity`), or,
    /// with `nil`, forgets the entry if its file is still missing.
    func scheduleRemoval(of name: EntryName, ifStill identity: FileIdentity?, isDamaged: Bool) {
        queue.async {
            self.recordingFailure {
                try self.withDirectoryLock {
                    let digest = name.digest
                    let current = try FileSystem.status(self.layout.entryPath(name.fileName))
                    if let identity {
                        guard let current, FileIdentity(current) == identity else { return }
                    } else if current != nil {
                        return
                    }
                    try self.removeEntryFile(name.fileName)
                    let entry = self.state.withLock { $0.index[digest] }
                    try self.commit([JournalRecord(kind: .remove, digest: digest)])
                    if !isDamaged, identity != nil, let entry {
                        self.state.withLock { state in
                            state.statistics.evictionCount += 1
                            state.statistics.bytesEvicted += Int(entry.size)
                        }
                    }
                }
            }
        }
    }

    // MARK: Flushing

    /// A staged change prepared for the directory lock: a complete temporary file, or a removal.
    private struct PreparedChange {
        var name: EntryName
        var digest: KeyDigest { name.digest }
        var temporaryPath: String?
        var size: Int64
        var expiry: Int64
        var written: Int64
    }

    /// Writes staged changes (all, or only `key`'s) and pending accesses. Runs on `queue`.
    func performFlush(for key: String?) {
        let reads = accesses.withLock { $0.takePending() }
        let batch = state.withLock { $0.staging.batch(for: key) }
        guard !batch.isEmpty || !reads.isEmpty else { return }
        write(batch, accesses: DataCache.latestAccesses(reads))
    }

    /// Writes the changes of `batch` and `accesses` to the directory, then forgets the changes of `batch` that are
    /// still staged. Runs on `queue`.
    func write(_ batch: Staging.Batch, accesses: [KeyDigest: Int64]) {
        // 1. Temporary files, written without holding the directory lock.
        var changes: [PreparedChange] = []
        var failedWrites = 0
        // In the order the changes were staged: files stored together are created together, so the file system's
        // tables hold them side by side and reading them back in that order (a feed scrolled back) is faster.
        for (key, item) in batch.items.sorted(by: { $0.item.sequence < $1.item.sequence }) {
            guard let name = entryName(forCanonicalKey: key) else { continue }
            switch item.change {
            case .remove:
                changes.append(PreparedChange(name: name, temporaryPath: nil, size: 0, expiry: 0, written: 0))
            case .write(let data, let expiry):
                let written = self.accesses.withLock { $0.timestamp(clock()) }
                do {
                    let path = try writeTemporaryFile(key: key, data: data, expiry: expiry, written: written)
                    changes.append(
                        PreparedChange(
                            name: name, temporaryPath: path, size: Int64(data.count), expiry: expiry, written: written))
                } catch {
                    failedWrites += 1
                    recordFailure(error)
                }
            }
        }

        // 2. Removals, journal, renames, trim: under the lock.
        var bytesWritten = 0
        var writeCount = 0
        var settledWrites = 0  // renamed into place or failed
        do {
            // Only writes bring back a deleted directory; removals and reads recorded there went with it.
            try withDirectoryLock(creatingDirectory: changes.contains { $0.temporaryPath != nil }) {
                var records: [JournalRecord] = []
                if batch.removeAllSequence != nil {
                    try removeAllEntryFiles()
                    records.append(JournalRecord(kind: .clear, digest: .zero))
                }
                // Remove files before logging their removal, log additions before renaming: a crash in between
                // leaves a logged entry without a file (harmless), never a file the log doesn't know.
                for change in changes where change.temporaryPath == nil {
                    try removeEntryFile(change.name.fileName)
                    records.append(JournalRecord(kind: .remove, digest: change.digest))
                }
                for change in changes where change.temporaryPath != nil {
                    records.append(
                        JournalRecord(
                            kind: .add, digest: change.digest, size: change.size, time: change.written,
                            expiry: change.expiry))
                }
                for (digest, time) in accesses {
                    records.append(JournalRecord(kind: .access, digest: digest, time: time))
                }
                try commit(records)

                var failedRenames: [JournalRecord] = []
                for change in changes {
                    guard let temporaryPath = change.temporaryPath else { continue }
                    do {
                        // The copy made for `url(for:)` goes first: it must never outlive the data it copies.
                        try FileSystem.removeFile(layout.exportPath(change.name.fileName))
                        try FileSystem.renameFile(temporaryPath, layout.entryPath(change.name.fileName))
                        bytesWritten += Int(change.size)
                        writeCount += 1
                        settledWrites += 1
                    } catch {
                        settledWrites += 1
                        unlink(temporaryPath)
                        failedWrites += 1
                        recordFailure(error)
                        failedRenames.append(JournalRecord(kind: .remove, digest: change.digest))
                    }
                }
                try commit(failedRenames)
                if isOverLimit { try trim(expiredOnly: false) }
                try compactJournalIfNeeded()
            }
        } catch {
            for change in changes {
                if let path = change.temporaryPath { unlink(path) }
            }
            failedWrites += changes.count(where: { $0.temporaryPath != nil }) - settledWrites
            recordFailure(error)
        }

        // 3. Forget what was written (or dropped); reads now go to the files.
        state.withLock { state in
            state.staging.commit(batch)
            state.statistics.writeCount += writeCount
            state.statistics.bytesWritten += bytesWritten
            state.statistics.failedWriteCount += failedWrites
        }
    }

    /// Writes a complete entry file to the temporary directory; recreates the directories once if they vanished.
    private func writeTemporaryFile(key: String, data: Data, expiry: Int64, written: Int64) throws(Error) -> String {
        let path = disk.makeTemporaryPath()
        do {
            _ = try EntryFile.write(to: path, key: key, payload: data, expiry: expiry, written: written)
        } catch {
            guard case .fileSystem(_, _, let code) = error, code == ENOENT else { throw error }
            try layout.createDirectories()
            _ = try EntryFile.write(to: path, key: key, payload: data, expiry: expiry, written: written)
        }
        return path
    }

    /// Removes the entry file `fileName` and, first, the copy of its data made for ``url(for:)``, so that no copy
    /// outlives its entry. Call with the directory lock held.
    func removeEntryFile(_ fileName: String) throws {
        try FileSystem.removeFile(layout.exportPath(fileName))
        try FileSystem.removeFile(layout.entryPath(fileName))
    }

    /// Runs `body`; a thrown error becomes ``lastError``.
    func recordingFailure(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            recordFailure(error)
        }
    }

    func recordFailure(_ error: any Swift.Error) {
        let error = error as? Error ?? .fileSystem(operation: "\(error)", path: layout.root, errno: EIO)
        state.withLock { $0.lastError = error }
    }
}
