import Foundation
import Testing

@testable import CacheDisk

/// Damaged files read as misses and are removed; damaged metadata is rebuilt; an unusable directory fails
/// with errors, not traps.
@Suite struct DataCacheIntegrityTests {
    let directory = TemporaryDirectory()
    let cache: DataCache
    let payload = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    init() throws {
        cache = try directory.makeCache()
        cache["key"] = payload
        cache["other"] = otherBlob
        cache.flush()
    }

    /// Rewrites the entry file of `key` with `transform` applied to its bytes.
    private func damage(_ key: String, _ transform: (inout Data) -> Void) throws {
        let url = cache.entryURL(for: key)
        var bytes = try Data(contentsOf: url)
        transform(&bytes)
        try bytes.write(to: url)
    }

    private func expectDamagedEntryIsMissAndRemoved(_ key: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(cache[key] == nil, sourceLocation: sourceLocation)
        cache.flush()  // the removal runs in the background
        #expect(!FileManager.default.fileExists(atPath: cache.entryURL(for: key).path), sourceLocation: sourceLocation)
        #expect(cache.statistics.damagedEntryCount == 1, sourceLocation: sourceLocation)
        #expect(cache.totalCount == 1, sourceLocation: sourceLocation)
        #expect(cache["other"] == otherBlob, sourceLocation: sourceLocation)
    }

    @Test func truncatedFileIsMissAndRemoved() throws {
        // Given
        try damage("key") { $0 = $0.prefix($0.count / 2) }

        // Then
        expectDamagedEntryIsMissAndRemoved("key")
    }

    @Test func fileTruncatedInsideTheHeaderIsMissAndRemoved() throws {
        try damage("key") { $0 = $0.prefix(10) }
        expectDamagedEntryIsMissAndRemoved("key")
    }

    @Test func emptyFileIsMissAndRemoved() throws {
        try damage("key") { $0 = Data() }
        expectDamagedEntryIsMissAndRemoved("key")
    }

    @Test(arguments: [0, 9, 30, 45, 66, 5_000, 10_066])
    func bitFlipIsMissAndRemoved(at offset: Int) throws {
        // Given one flipped bit: in the magic, checksum, lengths, expiry, key or payload
        try damage("key") { $0[offset] ^= 0x10 }

        // Then
        expectDamagedEntryIsMissAndRemoved("key")
    }

    @Test func appendedBytesAreMissAndRemoved() throws {
        try damage("key") { $0.append(0) }
        expectDamagedEntryIsMissAndRemoved("key")
    }

    @Test func anotherKeysFileIsMissAndRemoved() throws {
        // Given the file of "other" where "key"'s file should be
        try FileManager.default.removeItem(at: cache.entryURL(for: "key"))
        try FileManager.default.copyItem(at: cache.entryURL(for: "other"), to: cache.entryURL(for: "key"))

        // Then
        expectDamagedEntryIsMissAndRemoved("key")
    }

    @Test func damagedFileIsNotRemovedIfReplacedMeanwhile() throws {
        // Given a damaged file that is read (its removal is queued) …
        try damage("key") { $0[5_000] ^= 1 }
        cache.queue.suspend()
        #expect(cache["key"] == nil)

        // … and replaced by another instance before the removal runs
        let other = try directory.makeCache()
        other["key"] = blob
        other.flush()
        cache.queue.resume()
        cache.flush()

        // Then the good file survives
        #expect(cache["key"] == blob)
        #expect(cache.payloadOnDisk(for: "key") == blob)
    }

    @Test func garbageFileWithAnEntryNameIsRemovedBySweep() throws {
        // Given a file the cache did not write, named like an entry
        let name = try #require(KeyDigest(key: "stray")).fileName
        try Data("garbage".utf8).write(to: cache.path.appendingPathComponent(name))

        // When
        cache.sweep()

        // Then
        #expect(!FileManager.default.fileExists(atPath: cache.path.appendingPathComponent(name).path))
        #expect(cache.totalCount == 2)
        #expect(cache["stray"] == nil)
    }

    // MARK: Metadata

    @Test func tornJournalTailIsCutOffAndTheIndexReconciled() throws {
        // Given garbage after the last record, as a crash mid-append leaves it
        let journal = cache.path.appendingPathComponent(".datacache/journal")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 50))
        try handle.close()

        // When
        let reopened = try directory.makeCache()

        // Then
        #expect(reopened.totalCount == 2)
        #expect(reopened.totalSize == cache.totalSize)
        #expect(reopened["key"] == payload)
        #expect(try Data(contentsOf: journal).count % JournalRecord.byteCount == 16 % JournalRecord.byteCount)
    }

    @Test(arguments: ["missing", "garbage"])
    func lostJournalIsRebuiltFromTheDirectory(_ damage: String) throws {
        // Given
        let journal = cache.path.appendingPathComponent(".datacache/journal")
        if damage == "missing" {
            try FileManager.default.removeItem(at: journal)
        } else {
            try Data("not a journal".utf8).write(to: journal)
        }

        // When
        let reopened = try directory.makeCache()

        // Then
        #expect(reopened.totalCount == 2)
        #expect(reopened.totalSize == 10_000 + 3)
        #expect(reopened["key"] == payload)
    }

    @Test func stagedTemporaryFilesOfDeadProcessesAreRemovedOnOpen() throws {
        // Given a temporary file left by a process that no longer exists, and one of this process
        let temporary = cache.path.appendingPathComponent(".datacache/tmp")
        let orphan = temporary.appendingPathComponent("2147483646.dead.1")
        let ours = temporary.appendingPathComponent("\(ProcessInfo.processInfo.processIdentifier).live.1")
        try Data("x".utf8).write(to: orphan)
        try Data("y".utf8).write(to: ours)

        // When
        _ = try directory.makeCache()

        // Then
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(FileManager.default.fileExists(atPath: ours.path))
    }

    // MARK: Unusable directory

    @Test func fileWhereTheDirectoryWasFailsWritesWithAClearError() throws {
        // Given a file where the cache directory was
        try FileManager.default.removeItem(at: cache.path)
        try Data("in the way".utf8).write(to: cache.path)

        // When
        cache["new"] = blob
        cache.flush()

        // Then writes fail with an error naming the path, reads miss, nothing traps
        #expect(cache.lastError == .notADirectory(path: cache.path.path))
        #expect(cache.lastError?.description.contains(cache.path.path) == true)
        #expect(cache.statistics.failedWriteCount == 1)
        #expect(cache["new"] == nil)
        #expect(cache["key"] == nil)
        #expect(!cache.containsData(for: "key"))
        cache.sweep()
        cache.removeAll()
        cache.flush()

        // When the file goes away, the cache recovers
        try FileManager.default.removeItem(at: cache.path)
        cache["new"] = blob
        cache.flush()
        #expect(cache["new"] == blob)
        #expect(cache.totalCount == 1)
        #expect(cache.statistics.writeCount == 3)
    }

    @Test func fileWhereTheMetadataDirectoryShouldBeFailsOpen() throws {
        // Given
        let root = directory.path("blocked")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent(".datacache"))

        // Then
        #expect(throws: DataCache.Error.notADirectory(path: root.appendingPathComponent(".datacache").path)) {
            try DataCache(path: root)
        }
    }
}
