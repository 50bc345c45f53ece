import Foundation
import Testing

@testable import CacheDisk

/// Sweeping, `containsData`, totals, and unusual keys and sizes (after Nuke's `DataCacheTests`).
@Suite struct DataCacheInspectionTests {
    let directory = TemporaryDirectory()
    let cache: DataCache

    init() throws {
        cache = try directory.makeCache()
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

    @Test func totalSizeIsTheSumOfTheDataLengths() {
        #expect(cache.totalSize == 0)

        // When
        cache["1"] = Data("1".utf8)
        cache["longer key"] = Data(count: 1_000)
        cache["empty"] = Data()
        cache.flush()

        // Then the headers and keys in the files are not counted
        #expect(cache.totalSize == 1 + 1_000)
        #expect(cache.entryFiles.count == 3)
        let fileBytes = cache.entryFiles.reduce(0) { $0 + ((try? Data(contentsOf: $1).count) ?? 0) }
        #expect(fileBytes > cache.totalSize)

        // When one is replaced and one removed
        cache["1"] = Data(count: 10)
        cache["longer key"] = nil
        cache.flush()

        // Then
        #expect(cache.totalSize == 10)
    }

    @Test func totalSizeIsRebuiltFromTheFilesAsDataLengths() throws {
        // Given entries, and a journal that is lost
        cache["a"] = Data(count: 500)
        cache["bb"] = Data(count: 70)
        cache.flush()
        try FileManager.default.removeItem(at: cache.path.appendingPathComponent(".datacache/journal"))

        // When
        let reopened = try directory.makeCache()

        // Then
        #expect(reopened.totalSize == 570)
        #expect(reopened.totalCount == 2)
    }

    @Test func sizeLimitBoundsTheDataBytes() {
        // Given a limit that fits exactly ten 1 000-byte values but not their files
        cache.sizeLimit = 10_000

        // When
        for index in 0..<10 {
            cache["key\(index)"] = Data(count: 1_000)
        }
        cache.flush()

        // Then nothing is evicted
        #expect(cache.totalSize == 10_000)
        #expect(cache.totalCount == 10)
        #expect(cache.statistics.evictionCount == 0)
    }

    // MARK: Keys and sizes

    @Test func emptyKeyIsNeverStored() {
        // When
        cache[""] = blob

        // Then, as in Nuke, the store does nothing and reads miss
        #expect(cache[""] == nil)
        #expect(!cache.containsData(for: ""))
        cache.flush()
        #expect(cache[""] == nil)
        #expect(cache.entryFiles.isEmpty)
        #expect(cache.url(for: "") == nil)
        #expect(cache.filename(for: "") == nil)
        #expect(DataCache.filename(for: "") == nil)
        #expect(cache.statistics.missCount == 2)
        #expect(cache.lastError == nil)

        // And removing it is harmless
        cache[""] = nil
        cache.removeData(for: "")
        cache.flush()
        #expect(cache.totalCount == 0)
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
        #expect(cache.totalSize == large.count)
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

}
