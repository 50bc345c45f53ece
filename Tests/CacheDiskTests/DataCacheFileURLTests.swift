import Foundation
import Testing

@testable import CacheDisk

/// `url(for:)`: a file whose bytes are exactly the stored data, never stale, never from a damaged entry.
@Suite struct DataCacheFileURLTests {
    let directory = TemporaryDirectory()
    let clock = TestClock()
    let cache: DataCache

    init() throws {
        cache = try directory.makeCache(clock: clock.now)
    }

    /// Bytes that look like an entry header, so a file that still had one would not compare equal by chance.
    private let payload = Data("NUKEDC\0\u{1}".utf8) + Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 37) })

    private func contents(_ url: URL?) -> Data? {
        url.flatMap { try? Data(contentsOf: $0) }
    }

    @Test func fileHoldsExactlyTheStoredBytes() throws {
        // Given
        cache["key"] = payload
        cache.flush()

        // When
        let url = try #require(cache.url(for: "key"))

        // Then
        #expect(try Data(contentsOf: url) == payload)
        #expect(url.isFileURL)
        #expect(url.lastPathComponent == cache.filename(for: "key"))
        #expect(url.path.hasPrefix(cache.path.path + "/"))
        #expect(url != cache.entryURL(for: "key"))
        // A second call returns the same file
        #expect(cache.url(for: "key") == url)
        #expect(try Data(contentsOf: url) == payload)
    }

    @Test func emptyDataIsAnEmptyFile() throws {
        cache["key"] = Data()
        let url = try #require(cache.url(for: "key"))
        #expect(try Data(contentsOf: url) == Data())
    }

    @Test func stagedWriteIsFlushedFirst() throws {
        try cache.withPausedFlushes {
            // Given a write still in memory, over an older value on disk
            cache["key"] = otherBlob
            cache.flush()
            cache["key"] = payload

            // When
            let url = try #require(cache.url(for: "key"))

            // Then
            #expect(try Data(contentsOf: url) == payload)
            #expect(cache.payloadOnDisk(for: "key") == payload)
        }
    }

    @Test func stagedRemovalIsNil() {
        cache.withPausedFlushes {
            cache["key"] = payload
            cache.flush()
            cache["key"] = nil
            #expect(cache.url(for: "key") == nil)
        }
    }

    @Test func missingKeyIsNil() {
        #expect(cache.url(for: "missing") == nil)
    }

    @Test func replacingTheEntryRemovesTheOldCopy() throws {
        // Given a copy of the first value
        cache["key"] = payload
        let old = try #require(cache.url(for: "key"))

        // When the value is replaced
        cache["key"] = blob
        cache.flush()

        // Then the old copy is gone, and a new call copies the new value
        #expect(!FileManager.default.fileExists(atPath: old.path))
        let new = try #require(cache.url(for: "key"))
        #expect(try Data(contentsOf: new) == blob)
    }

    @Test func removingTheEntryRemovesTheCopy() throws {
        // Given
        cache["key"] = payload
        let url = try #require(cache.url(for: "key"))

        // When
        cache["key"] = nil
        cache.flush()

        // Then
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(cache.url(for: "key") == nil)
    }

    @Test func removeAllRemovesEveryCopy() throws {
        // Given
        cache["a"] = payload
        cache["b"] = blob
        let urls = [try #require(cache.url(for: "a")), try #require(cache.url(for: "b"))]

        // When
        cache.removeAll()
        cache.flush()

        // Then
        for url in urls { #expect(!FileManager.default.fileExists(atPath: url.path)) }
        #expect(cache.url(for: "a") == nil)
    }

    @Test func evictionRemovesTheCopy() throws {
        // Given a copy of the oldest entry
        cache.sizeLimit = 3 * payload.count
        cache["old"] = payload
        let url = try #require(cache.url(for: "old"))
        cache.flush()

        // When newer entries push it out
        for index in 0..<3 {
            cache["new\(index)"] = payload
            cache.flush()
        }

        // Then
        #expect(!cache.containsData(for: "old"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(cache.url(for: "old") == nil)
    }

    @Test func expiredEntryIsNil() throws {
        // Given
        cache.storeData(payload, for: "key", ttl: 10)
        let url = try #require(cache.url(for: "key"))

        // When
        clock.advance(seconds: 11)

        // Then
        #expect(cache.url(for: "key") == nil)
        cache.sweep()
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func corruptedEntryIsNilAndRemoved() throws {
        // Given an entry whose data was damaged on disk
        cache["key"] = payload
        cache.flush()
        var file = try Data(contentsOf: cache.entryURL(for: "key"))
        file[file.count - 10] ^= 0xff
        try file.write(to: cache.entryURL(for: "key"))

        // When
        let url = cache.url(for: "key")

        // Then
        #expect(url == nil)
        #expect(cache.statistics.damagedEntryCount == 1)
        #expect(!FileManager.default.fileExists(atPath: cache.entryURL(for: "key").path))
        #expect(cache.totalCount == 0)
    }

    @Test func truncatedEntryIsNil() throws {
        // Given an entry cut short, as by a crash mid-write in a cache that did not rename
        cache["key"] = payload
        cache.flush()
        let file = try Data(contentsOf: cache.entryURL(for: "key"))
        try file.prefix(file.count / 2).write(to: cache.entryURL(for: "key"))

        // Then
        #expect(cache.url(for: "key") == nil)
    }

    @Test func anotherInstanceReplacingTheEntryRemovesTheCopy() throws {
        // Given a copy made by one instance
        let other = try directory.makeCache(clock: clock.now)
        cache["key"] = payload
        let url = try #require(cache.url(for: "key"))

        // When another instance on the directory replaces the value
        other["key"] = blob
        other.flush()

        // Then the stale copy is gone, and both instances hand out the new bytes
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(contents(cache.url(for: "key")) == blob)
        #expect(contents(other.url(for: "key")) == blob)
    }

    @Test func copyIsAUseForTheLeastRecentlyUsedOrder() throws {
        // Given three entries, the first of which is then opened as a file
        cache.sizeLimit = 3 * payload.count
        for key in ["a", "b", "c"] {
            cache[key] = payload
            cache.flush()
        }
        _ = try #require(cache.url(for: "a"))

        // When a fourth entry goes over the limit (trimmed to 70 %: two entries stay)
        cache["d"] = payload
        cache.flush()

        // Then "a" stays, "b" and "c" go
        #expect(cache.containsData(for: "a"))
        #expect(!cache.containsData(for: "b"))
        #expect(!cache.containsData(for: "c"))
    }

    @Test func copiesDoNotCountInTotalSizeButInTotalAllocatedSize() throws {
        // Given
        cache["key"] = payload
        cache.flush()
        let before = cache.totalAllocatedSize

        // When
        _ = try #require(cache.url(for: "key"))

        // Then
        #expect(cache.totalSize == payload.count)
        #expect(cache.totalAllocatedSize > before)
    }
}
