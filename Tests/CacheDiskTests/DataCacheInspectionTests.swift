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

}
