import Foundation
import Testing

@testable import CacheDisk

/// Per-entry expiry, with a clock the tests move.
@Suite struct DataCacheTTLTests {
    let directory = TemporaryDirectory()
    let clock = TestClock()
    let cache: DataCache

    init() throws {
        cache = try directory.makeCache(clock: clock.now)
    }

    @Test func stagedEntryExpires() {
        cache.withPausedFlushes {
            // Given
            cache.storeData(blob, for: "a", ttl: 10)
            #expect(cache["a"] == blob)
            #expect(cache.containsData(for: "a"))

            // When
            clock.advance(seconds: 11)

            // Then
            #expect(cache["a"] == nil)
            #expect(!cache.containsData(for: "a"))
        }
    }

    @Test func flushedEntryExpiresAndIsRemovedWhenRead() {
        // Given
        cache.storeData(blob, for: "a", ttl: 10)
        cache["b"] = otherBlob
        cache.flush()
        clock.advance(seconds: 9)
        #expect(cache["a"] == blob)

        // When
        clock.advance(seconds: 2)

        // Then
        #expect(!cache.containsData(for: "a"))
        #expect(cache["a"] == nil)
        cache.flush()
        #expect(cache.entryFiles == [cache.entryURL(for: "b")])
        #expect(cache["b"] == otherBlob)
        #expect(cache.statistics.evictionCount == 1)
    }

    @Test func sweepRemovesExpiredEntries() {
        // Given
        cache.storeData(blob, for: "a", ttl: 5)
        cache.storeData(blob, for: "b", ttl: 50)
        cache["c"] = blob
        cache.flush()

        // When
        clock.advance(seconds: 6)
        cache.sweep()

        // Then
        #expect(cache.totalCount == 2)
        #expect(!FileManager.default.fileExists(atPath: cache.entryURL(for: "a").path))
        #expect(cache["b"] == blob)
    }

    @Test func expiryIsStoredInTheFile() throws {
        // Given
        cache.storeData(blob, for: "a", ttl: 5)
        cache.flush()

        // When a fresh instance reads it after the expiry
        clock.advance(seconds: 6)
        let reopened = try directory.makeCache(clock: clock.now)

        // Then
        #expect(reopened["a"] == nil)
    }

    @Test(arguments: [0.0, -1.0])
    func nonPositiveTTLRemoves(_ ttl: Double) {
        // Given
        cache["a"] = blob
        cache.flush()

        // When
        cache.storeData(otherBlob, for: "a", ttl: ttl)

        // Then
        #expect(cache["a"] == nil)
        cache.flush()
        #expect(cache.entryFiles.isEmpty)
    }
}
