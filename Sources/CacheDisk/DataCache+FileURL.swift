#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import NukeCore
public import Foundation

extension DataCache {
    /// The URL of a file whose bytes are exactly the data stored for `key`, for handing to code that reads files
    /// (players, viewers, `mmap`); `nil` if there is no intact, unexpired entry for the key.
    ///
    /// ## Contract
    /// - A staged change to `key` (or a staged ``removeAll()``) is flushed first, so the URL shows the latest
    ///   ``storeData(_:for:)``, and a staged removal gives `nil`.
    /// - The file is a copy of the verified data, made on the first call for the entry (later calls return the
    ///   same file without copying). It is never the entry file itself: entry files start with a header that
    ///   holds the key and a checksum, and the copy is what keeps that integrity check without exposing it.
    /// - The file lives in the cache directory's `.datacache/files/` and has the entry's name
    ///   (``filename(for:)-method``), so a name with an extension keeps it. It is written to a temporary file and renamed
    ///   into place, under the directory lock shared with every process using the directory: a crash leaves the
    ///   copy complete or absent, never partial.
    /// - The copy is removed before its entry is replaced, removed, evicted, expired or found damaged, by any
    ///   instance in any process; from then on the URL names no file until `url(for:)` is called again and copies
    ///   the new data. A reader that opened the file before keeps reading the old bytes (POSIX unlink semantics),
    ///   never a mix.
    /// - Copies take disk space on top of ``totalSize`` (they count in ``totalAllocatedSize``), at most once per
    ///   entry.
    /// - Counts as a use of the entry for the least-recently-used order, not as a hit in ``statistics``.
    /// - Blocks: waits for ``queue`` and the directory lock, and copies the data the first time.
    public func url(for key: String) -> URL? {
        let key = DataCache.canonicalKey(key)
        guard let name = entryName(forCanonicalKey: key) else { return nil }
        let isStaged =
            switch state.withLock({ $0.staging.lookup(key) }) {
            case .notStaged: false
            case .data, .removed: true
            }
        let path: String? = queue.sync {
            if isStaged { performFlush(for: key) }
            var path: String?
            recordingFailure {
                path = try withDirectoryLock { try exportedFile(of: name, key: key) } ?? nil
            }
            return path
        }
        return path.map { URL(fileURLWithPath: $0, isDirectory: false) }
    }

    /// The bytes the cache's files occupy on disk: the allocated blocks (`st_blocks` × 512) of every entry file
    /// (header and key included) and of every ``url(for:)`` copy, as of the last flush by any instance.
    ///
    /// Usually a little more than ``totalSize`` (file system blocks are rounded up); staged writes are not
    /// counted. Lists the directory: costs a `stat` per file. Blocks while ``queue`` finishes the work queued
    /// before it.
    public var totalAllocatedSize: Int {
        queue.sync {
            var total = 0
            recordingFailure {
                try withDirectoryLock {
                    let entries = state.withLock { $0.index.entries }
                    for fileName in try FileSystem.contentsOfDirectory(layout.root) ?? [] {
                        guard let name = EntryName(fileName: fileName), entries[name.digest] != nil,
                            let status = try FileSystem.status(layout.entryPath(fileName)),
                            FileSystem.isRegularFile(status)
                        else { continue }
                        total += FileSystem.allocatedSize(status)
                    }
                    for fileName in try FileSystem.contentsOfDirectory(layout.exports) ?? [] {
                        guard let status = try FileSystem.status(layout.exportPath(fileName)),
                            FileSystem.isRegularFile(status)
                        else { continue }
                        total += FileSystem.allocatedSize(status)
                    }
                }
            }
            return total
        }
    }

    /// The path of the exact copy of `key`'s data, making it if needed; `nil` if there is no intact, unexpired
    /// entry. Call on `queue` with the directory lock held.
    ///
    /// A copy that exists is current: every change to an entry file removes its copy first, under the same lock.
    /// It is still checked against the entry file's header (present, `key`'s, same data length), which costs one
    /// small read instead of verifying the whole entry again.
    private func exportedFile(of name: EntryName, key: String) throws -> String? {
        let now = clock()
        let entryPath = layout.entryPath(name.fileName)
        let exportPath = layout.exportPath(name.fileName)
        let known = state.withLock { $0.index[name.digest] }
        if let known, known.isExpired(at: now) { return nil }

        if let copy = try FileSystem.status(exportPath), FileSystem.isRegularFile(copy),
            let header = EntryFile.readHeader(at: entryPath, key: key), header.payloadLength == Int(copy.st_size),
            header.expiry == 0 || header.expiry > now
        {
            try recordAccess(of: name.digest, at: now)
            return exportPath
        }

        let expectedSize = known.map { EntryFile.fileSize(keyCount: key.utf8.count, payloadCount: Int($0.size)) }
        switch EntryFile.read(at: entryPath, key: key, expectedSize: expectedSize) {
        case .hit(let data, let expiry, _):
            guard expiry == 0 || expiry > now else { return nil }
            try FileSystem.removeFile(exportPath)
            let temporaryPath = disk.makeTemporaryPath()
            do {
                try FileSystem.writeNewFile(temporaryPath, data)
            } catch {
                // The metadata directories may have been deleted behind the cache's back.
                guard case .fileSystem(_, _, let code) = error, code == ENOENT else { throw error }
                try layout.createDirectories()
                try FileSystem.writeNewFile(temporaryPath, data)
            }
            do {
                try FileSystem.renameFile(temporaryPath, exportPath)
            } catch {
                unlink(temporaryPath)
                throw error
            }
            try recordAccess(of: name.digest, at: now)
            return exportPath
        case .missing:
            try FileSystem.removeFile(exportPath)
            if known != nil { try commit([JournalRecord(kind: .remove, digest: name.digest)]) }
            return nil
        case .otherKey where !name.isDefault:
            return nil
        case .otherKey, .damaged:
            state.withLock { $0.statistics.damagedEntryCount += 1 }
            try removeEntryFile(name.fileName)
            try commit([JournalRecord(kind: .remove, digest: name.digest)])
            return nil
        case .failed(let error):
            throw error
        }
    }

    /// Moves the entry up in the least-recently-used order, in the index and the journal. Call with the directory
    /// lock held.
    private func recordAccess(of digest: KeyDigest, at now: Int64) throws {
        let time = accesses.withLock { $0.timestamp(now) }
        try commit([JournalRecord(kind: .access, digest: digest, time: time)])
    }
}
