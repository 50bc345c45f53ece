import Foundation
import Testing

@testable import CacheDisk

/// The behaviour of Nuke's `DataCache`: staging, replace, remove, `removeAll` ordering, flushing, sweeping,
/// inspection, and recovering a deleted directory.
@Suite struct DataCacheTests {
    let directory = TemporaryDirectory()
    let cache: DataCache

    init() throws {
        cache = try DataCache(path: directory.path("cache"))
    }

    // MARK: Init

    @Test func initWithPathCreatesTheDirectory() throws {
        // Given
        let path = directory.path("a/b/c")

        // When
        let cache = try DataCache(path: path)

        // Then
        #expect(cache.path == path.standardizedFileURL)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(cache.sizeLimit == 150 * 1024 * 1024)
    }

    @Test func initWithNameUsesXDGCacheHomeThenHome() throws {
        #expect(
            try DataCache.directory(forName: "images", environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"]).path
                == "/x/cache/images")
        #expect(
            try DataCache.directory(forName: "images", environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]).path
                == "/h/.cache/images")
        #expect(try DataCache.directory(forName: "images", environment: ["HOME": "/h"]).path == "/h/.cache/images")
        #expect(throws: DataCache.Error.cacheDirectoryUnknown) {
            try DataCache.directory(forName: "images", environment: [:])
        }
    }

    @Test func initWithNameCreatesTheDirectoryInTheUserCacheDirectory() throws {
        // Given
        let name = "CacheDiskTests-\(UUID().uuidString)"
        defer {
            if let url = try? DataCache.directory(forName: name, environment: ProcessInfo.processInfo.environment) {
                try? FileManager.default.removeItem(at: url)
            }
        }

        // When
        let cache = try DataCache(name: name)
        cache["key"] = blob
        cache.flush()

        // Then
        #expect(cache.path.lastPathComponent == name)
        #expect(FileManager.default.fileExists(atPath: cache.path.path))
        #expect(cache.entryFiles.count == 1)
    }

    @Test(arguments: ["", ".", "..", "a/b", "/"])
    func initWithInvalidNameThrows(_ name: String) {
        #expect(throws: DataCache.Error.invalidName(name)) { try DataCache(name: name) }
    }

    @Test func initWithNonFileURLThrows() throws {
        let url = try #require(URL(string: "https://example.com/cache"))
        #expect(throws: DataCache.Error.notAFileURL(url)) { try DataCache(path: url) }
    }

    @Test func initWhereAFileIsInTheWayThrows() throws {
        // Given
        let path = directory.path("file")
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: path)

        // Then
        #expect(throws: DataCache.Error.notADirectory(path: path.path)) { try DataCache(path: path) }
    }

    // MARK: File names

    @Test func fileNameIsTheSHA256OfTheKey() {
        #expect(
            KeyDigest(key: "http://test.com")?.fileName
                == "8b408a0c7163fdfff06ced3e80d7d2b3acd9db900905c4783c28295b8c996165")
        #expect(KeyDigest(key: "")?.fileName == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func fileNameRoundTrips() throws {
        let digest = try #require(KeyDigest(key: "http://test.com"))
        #expect(KeyDigest(fileName: digest.fileName) == digest)
        #expect(KeyDigest(fileName: "not-a-digest") == nil)
        #expect(KeyDigest(fileName: String(digest.fileName.dropLast())) == nil)
        #expect(KeyDigest(fileName: digest.fileName.uppercased()) == nil)
        #expect(KeyDigest(fileName: digest.fileName + "0") == nil)
    }

    @Test func pathLikeKeysStayInTheDirectory() {
        // When
        cache["../../escape"] = blob
        cache["/etc/passwd"] = otherBlob
        cache.flush()

        // Then
        #expect(cache.entryFiles.count == 2)
        #expect(cache["../../escape"] == blob)
        #expect(cache["/etc/passwd"] == otherBlob)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("escape").path))
    }

    // MARK: Add

    @Test func add() {
        cache.withPausedFlushes {
            // When
            cache["key"] = blob

            // Then
            #expect(cache["key"] == blob)
        }
    }

    @Test func addIsNotWrittenImmediately() {
        cache.withPausedFlushes {
            // When
            cache["key"] = blob

            // Then
            #expect(cache.entryFiles.isEmpty)
        }
    }

    @Test func addAndFlush() {
        // Given
        cache.withPausedFlushes {
            cache["key"] = blob
        }

        // When
        cache.flush()

        // Then
        #expect(cache.entryFiles == [cache.entryURL(for: "key")])
        #expect(cache["key"] == blob)
        #expect(cache.payloadOnDisk(for: "key") == blob)
    }

    @Test func replace() {
        cache.withPausedFlushes {
            // Given
            cache["key"] = blob

            // When
            cache["key"] = otherBlob

            // Then
            #expect(cache["key"] == otherBlob)
        }
    }

    @Test func replaceFlushed() {
        // Given
        cache["key"] = blob
        cache.flush()

        cache.withPausedFlushes {
            cache["key"] = otherBlob

            // Then the old value is still on disk, the new one staged
            #expect(cache.entryFiles.count == 1)
            #expect(cache.payloadOnDisk(for: "key") == blob)
            #expect(cache["key"] == otherBlob)
        }

        // When
        cache.flush()

        // Then
        #expect(cache.entryFiles.count == 1)
        #expect(cache.payloadOnDisk(for: "key") == otherBlob)
        #expect(cache["key"] == otherBlob)
    }

    // MARK: Remove

    @Test func removeNonExistent() {
        // When
        cache["key"] = nil
        cache.flush()

        // Then
        #expect(cache["key"] == nil)
        #expect(cache.lastError == nil)
    }

    @Test func removeFromStaging() {
        cache.withPausedFlushes {
            cache["key"] = blob
            cache["key"] = nil
            #expect(cache["key"] == nil)
        }
        cache.flush()
        #expect(cache["key"] == nil)
        #expect(cache.entryFiles.isEmpty)
    }

    @Test func removeReplaced() {
        cache.withPausedFlushes {
            cache["key"] = blob
            cache["key"] = otherBlob
            cache["key"] = nil
        }
        cache.flush()
        #expect(cache["key"] == nil)
        #expect(cache.entryFiles.isEmpty)
    }

    @Test func removeReplacedFlushed() {
        // Given
        cache["key"] = blob
        cache.flush()

        cache.withPausedFlushes {
            cache["key"] = otherBlob
            cache["key"] = nil
            #expect(cache["key"] == nil)
            #expect(cache.payloadOnDisk(for: "key") == blob)
        }

        // When the removal is flushed
        cache.flush()

        // Then
        #expect(cache.entryFiles.isEmpty)
    }

    @Test func removeFlushed() {
        // Given
        cache["key"] = blob
        cache.flush()

        cache.withPausedFlushes {
            cache["key"] = nil
            #expect(cache["key"] == nil)
            // Still on disk until flushed
            #expect(cache.entryFiles.count == 1)
            #expect(cache.payloadOnDisk(for: "key") == blob)
        }
        cache.flush()

        #expect(cache["key"] == nil)
        #expect(cache.entryFiles.isEmpty)
    }

    @Test func removeWhenRemovalAlreadyStaged() {
        // Given
        cache["key"] = blob
        cache.flush()

        // When
        cache["key"] = nil
        cache["key"] = nil
        cache.flush()

        // Then
        #expect(cache.entryFiles.isEmpty)
    }

    @Test func removeAndThenReplace() {
        // Given
        cache["key"] = blob
        cache.flush()

        // When
        cache["key"] = nil
        cache["key"] = blob
        cache.flush()

        // Then
        #expect(cache["key"] == blob)
        #expect(cache.entryFiles.count == 1)
        #expect(cache.payloadOnDisk(for: "key") == blob)
    }

    // MARK: Remove all

    @Test func removeAll() {
        cache.withPausedFlushes {
            // Given
            cache["key"] = blob

            // When
            cache.removeAll()

            // Then
            #expect(cache["key"] == nil)
        }
    }

    @Test func removeAllFlushed() {
        // Given
        cache["key"] = blob
        cache.flush()

        // When
        cache.withPausedFlushes {
            cache.removeAll()

            // Then
            #expect(cache["key"] == nil)
            #expect(!cache.containsData(for: "key"))
        }
    }

    @Test func removeAllFlushedAndFlush() {
        // Given
        cache["key"] = blob
        cache.flush()

        // When
        cache.removeAll()
        cache.flush()

        // Then
        #expect(cache["key"] == nil)
        #expect(cache.entryFiles.isEmpty)
        #expect(cache.totalCount == 0)
        #expect(cache.totalSize == 0)
    }

    @Test func removeAllAndAdd() {
        cache.withPausedFlushes {
            // Given
            cache["key"] = blob

            // When
            cache.removeAll()
            cache["key"] = blob

            // Then
            #expect(cache["key"] == blob)
        }
        cache.flush()
        #expect(cache["key"] == blob)
        #expect(cache.entryFiles.count == 1)
    }

    @Test func removeAllTwice() {
        cache.withPausedFlushes {
            // Given
            cache["key"] = blob

            // When
            cache.removeAll()
            cache["key"] = blob
            cache.removeAll()

            // Then
            #expect(cache["key"] == nil)
        }
        cache.flush()
        #expect(cache.entryFiles.isEmpty)
    }

    @Test func removeAllKeepsOtherFilesInTheDirectory() throws {
        // Given a file the cache did not write
        let other = cache.path.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: other)
        cache["key"] = blob
        cache.flush()

        // When
        cache.removeAll()
        cache.flush()

        // Then
        #expect(cache.entryFiles.isEmpty)
        #expect(try Data(contentsOf: other) == Data("mine".utf8))
    }

    // MARK: DataCaching

    @Test func cachedDataHitFromStaging() {
        cache.withPausedFlushes {
            // Given
            cache["key"] = blob

            // When/Then
            #expect(cache.cachedData(for: "key") == blob)
        }
    }

    @Test func cachedDataFromDisk() {
        // Given
        cache["key"] = blob
        cache.flush()

        // When/Then
        #expect(cache.cachedData(for: "key") == blob)
    }

    // MARK: Flush

    @Test func flushWritesEverything() {
        // Given
        cache.withPausedFlushes {
            cache["key"] = blob

            // When
            cache.flush()

            // Then
            #expect(cache.entryFiles == [cache.entryURL(for: "key")])
        }
    }

    @Test func flushForKey() {
        cache.withPausedFlushes {
            // Given
            cache["key"] = blob

            // When
            cache.flush(for: "key")

            // Then
            #expect(cache.entryFiles == [cache.entryURL(for: "key")])
        }
    }

    @Test func flushForKeyWritesOnlyThatKey() {
        cache.withPausedFlushes {
            // Given
            cache["key1"] = blob
            cache["key2"] = blob

            // When
            cache.flush(for: "key1")

            // Then
            #expect(cache.entryFiles == [cache.entryURL(for: "key1")])
            #expect(cache["key2"] == blob)
        }
        cache.flush()
        #expect(cache.entryFiles.count == 2)
    }

    @Test func flushForKeyAfterRemoveAllKeepsTheOrder() {
        // Given
        cache["old"] = blob
        cache.flush()

        cache.withPausedFlushes {
            // When
            cache.removeAll()
            cache["key"] = otherBlob
            cache.flush(for: "key")

            // Then
            #expect(cache.entryFiles == [cache.entryURL(for: "key")])
        }
        #expect(cache["old"] == nil)
        #expect(cache["key"] == otherBlob)
    }

    // MARK: Sweep

    @Test func sweepTrimsTo70PercentOfTheLimit() {
        // Given
        let mb = 1024 * 1024
        cache.withPausedFlushes {
            cache.sizeLimit = mb * 3 + 4096
            for index in 1...4 { cache["key\(index)"] = Data(repeating: 1, count: mb) }
            cache.flush()
        }

        // When
        cache.sweep()

        // Then
        #expect(cache.totalSize <= Int(Double(cache.sizeLimit) * 0.7))
        #expect(cache.totalCount == 2)
        #expect(cache.entryFiles.count == 2)
    }

    // MARK: Inspection

    @Test func containsData() {
        // Given
        cache["key"] = blob
        cache.flush(for: "key")

        // When/Then
        #expect(cache.containsData(for: "key"))
        #expect(!cache.containsData(for: "other"))
    }

    @Test func containsDataInStaging() {
        cache.withPausedFlushes {
            // Given
            cache["key"] = blob

            // When/Then
            #expect(cache.containsData(for: "key"))
        }
    }

    @Test func containsDataAfterRemoval() {
        cache.withPausedFlushes {
            // Given
            cache["key"] = blob
            cache.flush(for: "key")
            cache["key"] = nil

            // When/Then
            #expect(!cache.containsData(for: "key"))
        }
    }

    @Test func containsDataDoesNotCountAsARead() {
        // Given
        cache["key"] = blob
        cache.flush()

        // When
        _ = cache.containsData(for: "key")

        // Then
        #expect(cache.statistics.hitCount == 0)
        #expect(cache.statistics.missCount == 0)
    }

    @Test func totalCount() {
        #expect(cache.totalCount == 0)

        cache["1"] = Data("1".utf8)
        cache.flush()

        #expect(cache.totalCount == 1)
    }

    @Test func totalSize() {
        #expect(cache.totalSize == 0)

        cache["1"] = Data("1".utf8)
        cache.flush()

        #expect(cache.totalSize == EntryFile.fileSize(keyCount: 1, payloadCount: 1))
        #expect(cache.totalSize == (try? Data(contentsOf: cache.entryURL(for: "1")).count))
    }

    // MARK: Keys and sizes

    @Test func emptyKey() {
        // When
        cache[""] = blob

        // Then
        #expect(cache[""] == blob)
        cache.flush()
        #expect(cache[""] == blob)
        #expect(cache.containsData(for: ""))
        #expect(cache.entryFiles == [cache.entryURL(for: "")])
    }

    @Test func canonicallyEquivalentKeysAreOneEntry() throws {
        // Given two spellings of "é" that Swift considers equal
        let decomposed = "caf\u{65}\u{301}"
        let precomposed = "caf\u{e9}"

        // When
        cache[decomposed] = blob
        cache.flush()

        // Then
        #expect(cache[precomposed] == blob)
        #expect(cache.entryFiles.count == 1)
        cache[precomposed] = otherBlob
        cache.flush()
        #expect(cache[decomposed] == otherBlob)
        #expect(cache.entryFiles.count == 1)
    }

    @Test func emptyData() {
        // When
        cache["key"] = Data()
        cache.flush()

        // Then
        #expect(cache["key"] == Data())
        #expect(cache.containsData(for: "key"))
    }

    @Test func largeEntry() {
        // Given
        let large = Data((0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })

        // When
        cache["large"] = large
        cache.flush()

        // Then
        #expect(cache["large"] == large)
        #expect(cache.totalSize == EntryFile.fileSize(keyCount: 5, payloadCount: large.count))
    }

    @Test func entryLargerThanTheLimitIsNotStored() {
        // Given
        cache.sizeLimit = 1_000
        cache["key"] = Data(count: 100)
        cache.flush()

        // When
        cache["key"] = Data(count: 2_000)

        // Then the new value is dropped and the old one removed
        #expect(cache["key"] == nil)
        cache.flush()
        #expect(cache.entryFiles.isEmpty)
    }

    // MARK: Resilience

    @Test func deletedDirectoryIsRecreated() throws {
        // Given
        cache["1"] = Data("2".utf8)
        cache.flush()

        // When
        try FileManager.default.removeItem(at: cache.path)
        cache["1"] = Data("3".utf8)
        cache.flush()

        // Then
        #expect(cache.payloadOnDisk(for: "1") == Data("3".utf8))
        #expect(cache["1"] == Data("3".utf8))
        #expect(cache.totalCount == 1)
        #expect(cache.lastError == nil)
    }

    @Test func deletedDirectoryReadsMissAndTotalsReset() throws {
        // Given
        cache["1"] = blob
        cache.flush()

        // When
        try FileManager.default.removeItem(at: cache.path)

        // Then
        #expect(cache["1"] == nil)
        #expect(!cache.containsData(for: "1"))
        #expect(cache.totalCount == 0)
        #expect(cache.totalSize == 0)
    }
}
