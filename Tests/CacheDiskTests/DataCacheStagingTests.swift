import Foundation
import Testing

@testable import CacheDisk

/// Staged writes and removals, `removeAll` ordering and flushing (after Nuke's `DataCacheTests`).
@Suite struct DataCacheStagingTests {
    let directory = TemporaryDirectory()
    let cache: DataCache

    init() throws {
        cache = try directory.makeCache()
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

}
