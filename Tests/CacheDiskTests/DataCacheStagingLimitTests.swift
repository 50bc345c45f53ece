import Foundation
import Testing

@testable import CacheDisk

/// `stagingLimit`: staged changes never hold more memory than the limit, and back-pressure loses nothing.
@Suite struct DataCacheStagingLimitTests {
    let directory = TemporaryDirectory()
    let cache: DataCache

    init() throws {
        cache = try directory.makeCache()
    }

    /// Payload `index` of `count` bytes, distinct per index.
    func payload(_ index: Int, count: Int = 1_000) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) })
    }

    @Test func defaultLimitIs64MB() {
        #expect(cache.stagingLimit == 64 * 1024 * 1024)
        #expect(DataCache.defaultStagingLimit == cache.stagingLimit)
    }

    @Test func writesWithPausedFlusherNeverStageMoreThanTheLimit() {
        // Given a flusher that never runs on its own, and room for about ten entries
        cache.stagingLimit = 10_500
        cache.withPausedFlushes {
            // When many more are written
            for index in 0..<200 {
                cache.storeData(payload(index), for: "key\(index)")
                #expect(cache.stagedByteCount.current <= 10_500)
            }

            // Then the callers wrote the overflow themselves; the rest is staged and readable
            #expect(cache.stagedByteCount.peak <= 10_500)
            #expect(cache.stagedByteCount.peak > 9_000)
            #expect(cache.entryFiles.count >= 190)
            for index in 0..<200 {
                #expect(cache["key\(index)"] == payload(index))
            }
        }

        // And after a flush everything is on disk
        cache.flush()
        #expect(cache.stagedByteCount.current == 0)
        #expect(cache.entryFiles.count == 200)
        #expect(cache.totalCount == 200)
        #expect(cache.lastError == nil)
    }

    @Test func concurrentWritersFasterThanTheFlusherStayUnderTheLimit() async {
        // Given a small limit and four writers
        cache.stagingLimit = 20_000
        let cache = self.cache

        // When they write 800 entries as fast as they can
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in stride(from: writer, to: 800, by: 4) {
                        cache.storeData(self.payload(index, count: 4_000), for: "key\(index)")
                    }
                }
            }
        }

        // Then the staged bytes never went over the limit, and nothing was lost
        #expect(cache.stagedByteCount.peak <= 20_000)
        cache.flush()
        #expect(cache.totalCount == 800)
        for index in 0..<800 {
            #expect(cache["key\(index)"] == payload(index, count: 4_000))
        }
        #expect(cache.statistics.failedWriteCount == 0)
    }

    @Test func replacingAStagedValueCountsOnlyTheNewOne() {
        cache.stagingLimit = 3_000
        cache.withPausedFlushes {
            // When one key is replaced many times
            for version in 0..<50 {
                cache.storeData(payload(version, count: 2_000), for: "key")
            }

            // Then only the latest value is held, and nothing needed writing
            #expect(cache.stagedByteCount.current == 2_003)
            #expect(cache.entryFiles.isEmpty)
            #expect(cache["key"] == payload(49, count: 2_000))
        }
    }

    @Test func removalsCountTheirKeys() {
        cache.stagingLimit = 100
        cache.withPausedFlushes {
            // When more removals are staged than fit
            for index in 0..<50 {
                cache.removeData(for: "key-number-\(index)")
                #expect(cache.stagedByteCount.current <= 100)
            }

            // Then they still take effect
            #expect(cache["key-number-0"] == nil)
        }
        #expect(cache.stagedByteCount.peak <= 100)
    }

    @Test func anEntryLargerThanTheLimitIsWrittenBeforeStoreDataReturns() {
        cache.stagingLimit = 1_000
        cache.withPausedFlushes {
            // When
            cache.storeData(payload(1, count: 5_000), for: "large")

            // Then it is on disk already and was never staged
            #expect(cache.entryFiles == [cache.entryURL(for: "large")])
            #expect(cache.payloadOnDisk(for: "large") == payload(1, count: 5_000))
            #expect(cache.stagedByteCount.peak == 0)
            #expect(cache["large"] == payload(1, count: 5_000))
        }
    }

    @Test func anEntryLargerThanTheLimitReplacesTheStagedValue() {
        cache.stagingLimit = 1_000
        cache.withPausedFlushes {
            // Given an older value of the key staged
            cache.storeData(payload(1, count: 500), for: "key")

            // When a larger value is written through
            cache.storeData(payload(2, count: 5_000), for: "key")

            // Then the newer value wins, now and after a flush
            #expect(cache["key"] == payload(2, count: 5_000))
        }
        cache.flush()
        #expect(cache["key"] == payload(2, count: 5_000))
        #expect(cache.payloadOnDisk(for: "key") == payload(2, count: 5_000))
    }

    @Test func anEntryLargerThanTheLimitIsKeptByAnEarlierRemoveAll() {
        // Given an entry on disk and a staged removeAll
        cache["old"] = blob
        cache.flush()
        cache.stagingLimit = 1_000
        cache.withPausedFlushes {
            cache.removeAll()

            // When a large entry is written through after it
            cache.storeData(payload(3, count: 5_000), for: "large")

            // Then the removeAll went first
            #expect(cache.entryFiles == [cache.entryURL(for: "large")])
            #expect(cache["old"] == nil)
            #expect(cache["large"] == payload(3, count: 5_000))
        }
    }

    @Test func aLaterValueStagedForTheKeyIsNotOverwritten() {
        cache.stagingLimit = 1_000
        cache.withPausedFlushes {
            // Given a large value written through, then a small one staged
            cache.storeData(payload(1, count: 5_000), for: "key")
            cache.storeData(payload(2, count: 100), for: "key")

            // Then the small one is what reads see, now and after a flush
            #expect(cache["key"] == payload(2, count: 100))
        }
        cache.flush()
        #expect(cache["key"] == payload(2, count: 100))
    }
}
