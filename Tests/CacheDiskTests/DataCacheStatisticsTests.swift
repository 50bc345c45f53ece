import Foundation
import Testing

@testable import CacheDisk

/// What ``DataCache/statistics`` counts.
@Suite struct DataCacheStatisticsTests {
    let directory = TemporaryDirectory()

    @Test func countsHitsMissesWritesAndEvictions() throws {
        // Given
        let cache = try directory.makeCache()
        let size = 1_000
        cache.sizeLimit = size * 3

        // When
        cache["a"] = Data(count: 1_000)
        _ = cache["a"]  // staged hit
        cache.flush()
        _ = cache["a"]  // disk hit
        _ = cache["x"]  // miss
        cache["b"] = Data(count: 1_000)
        cache.flush()
        cache["c"] = Data(count: 1_000)
        cache.flush()
        cache["d"] = Data(count: 1_000)
        cache.flush()

        // Then
        let statistics = cache.statistics
        #expect(statistics.hitCount == 2)
        #expect(statistics.missCount == 1)
        #expect(statistics.writeCount == 4)
        #expect(statistics.bytesWritten == 4 * size)
        #expect(statistics.evictionCount == 2)
        #expect(statistics.bytesEvicted == 2 * size)
        #expect(statistics.damagedEntryCount == 0)
        #expect(statistics.failedWriteCount == 0)
    }
}
