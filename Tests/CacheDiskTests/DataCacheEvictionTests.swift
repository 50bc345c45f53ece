import Foundation
import Testing

@testable import CacheDisk

/// The size limit is enforced while the cache runs, least recently used entries go first, and the order
/// survives reopening.
@Suite struct DataCacheEvictionTests {
    let directory = TemporaryDirectory()
    let cache: DataCache
    /// The size each test entry counts for in `totalSize`: its data ("k0" … "k99" with 10 000-byte payloads).
    let entrySize = 10_000

    init() throws {
        cache = try directory.makeCache()
    }

    private func value(_ index: Int) -> Data {
        Data(repeating: UInt8(truncatingIfNeeded: index), count: 10_000)
    }

    /// Stores k0 … k(count-1), flushing after each so they are written (and used) in order.
    private func fill(_ cache: DataCache, count: Int) {
        for index in 0..<count {
            cache["k\(index)"] = value(index)
            cache.flush()
        }
    }

    private func survivors(_ cache: DataCache, upTo count: Int) -> [Int] {
        (0..<count).filter { cache.containsData(for: "k\($0)") }
    }

    @Test func sweepEvictsLeastRecentlyUsedFirst() {
        // Given ten entries that fit, and reads that make k0 … k2 the most recently used
        cache.sizeLimit = entrySize * 10 + entrySize / 2
        fill(cache, count: 10)
        for index in 0..<3 { #expect(cache["k\(index)"] == value(index)) }

        // When an eleventh entry pushes the total over the limit
        cache["k10"] = value(10)
        cache.flush()

        // Then the cache trimmed itself to 70 % (7 entries), evicting the four least recently used
        #expect(survivors(cache, upTo: 11) == [0, 1, 2, 7, 8, 9, 10])
        #expect(cache.totalCount == 7)
        #expect(cache.totalSize <= Int(Double(cache.sizeLimit) * 0.7))
        #expect(cache.statistics.evictionCount == 4)
        #expect(cache.statistics.bytesEvicted == 4 * entrySize)
    }

    @Test func accessOrderSurvivesReopening() throws {
        // Given ten entries of which k0 was read last, recorded by a flush
        fill(cache, count: 10)
        #expect(cache["k0"] == value(0))
        cache.flush()

        // When a new instance goes over its limit
        let reopened = try directory.makeCache()
        reopened.sizeLimit = entrySize * 10 + entrySize / 2
        reopened["k10"] = value(10)
        reopened.flush()

        // Then k0 is kept and the oldest (k1 … k4) evicted
        #expect(survivors(reopened, upTo: 11) == [0, 5, 6, 7, 8, 9, 10])
    }

    @Test func sizeIsEnforcedWhileWritingThreeTimesTheLimit() {
        // Given
        let limit = 1 << 20
        let window = 3
        cache.sizeLimit = limit
        let payloadSize = 100_000
        let entrySize = payloadSize

        // When 3 MB are written in a loop, flushing every `window` writes
        for index in 0..<(3 * limit / payloadSize) {
            cache[String(format: "w%03d", index)] = Data(repeating: UInt8(index % 256), count: payloadSize)
            // Then what is on disk never exceeds the limit plus one flush window
            #expect(bytesOnDisk() <= limit + window * entrySize)
            if index % window == window - 1 {
                cache.flush()
                #expect(cache.totalSize <= limit)
                #expect(bytesOnDisk() <= limit)
            }
        }
        cache.flush()
        #expect(bytesOnDisk() <= limit)
        #expect(cache.totalSize == bytesOnDisk())
        #expect(cache.statistics.evictionCount > 0)
    }

    @Test func sizeIsEnforcedByBackgroundFlushesAlone() async {
        // Given
        let limit = 512 << 10
        cache.sizeLimit = limit

        // When 3 × the limit is stored without any explicit flush or sweep, and the background writes settle
        for index in 0..<48 {
            cache["b\(index)"] = Data(repeating: 1, count: 32_000)
        }
        await backgroundWorkQueuedSoFar()

        // Then
        #expect(cache.statistics.writeCount == 48)
        #expect(bytesOnDisk() <= limit)
        #expect(cache.statistics.evictionCount > 0)
    }

    @Test func loweringTheLimitTrimsInTheBackground() {
        // Given
        fill(cache, count: 10)

        // When
        cache.sizeLimit = entrySize * 5
        cache.flush()  // waits for queued background work

        // Then
        #expect(cache.totalSize <= Int(Double(entrySize * 5) * 0.7))
        #expect(survivors(cache, upTo: 10) == [7, 8, 9])
    }

    @Test func sweepUnderTheLimitKeepsEverything() {
        fill(cache, count: 5)
        cache.sweep()
        #expect(cache.totalCount == 5)
        #expect(cache.statistics.evictionCount == 0)
    }

    @Test func sweepForgetsFilesDeletedBehindItsBack() throws {
        // Given
        fill(cache, count: 3)
        try FileManager.default.removeItem(at: cache.entryURL(for: "k1"))

        // When
        cache.sweep()

        // Then
        #expect(cache.totalCount == 2)
        #expect(cache.totalSize == 2 * entrySize)
    }

    /// The sum of the data lengths recorded in the entry files' headers on disk (what `totalSize` counts).
    private func bytesOnDisk() -> Int {
        cache.entryFiles.reduce(0) { total, url in
            total + (EntryFile.readHeader(at: url.path)?.0.payloadLength ?? 0)
        }
    }

    /// Returns once the background work queued so far has run. Every store schedules a background flush
    /// unless one is pending that has not taken its batch yet, so after the stores above this covers them all.
    private func backgroundWorkQueuedSoFar() async {
        let queue = cache.queue
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}
