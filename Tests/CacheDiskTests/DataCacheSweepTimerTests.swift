#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Testing

@testable import CacheDisk

/// The periodic sweep (`sweepInterval`, `isSweepEnabled`), `totalAllocatedSize`, and the public `queue`.
@Suite struct DataCacheSweepTimerTests {
    let directory = TemporaryDirectory()
    let clock = TestClock()

    /// Polls `condition` until it holds or `seconds` pass; for outcomes driven by a timer, which no gate can open.
    private func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func defaultsAreNukes() throws {
        let cache = try directory.makeCache()
        #expect(cache.sweepInterval == 1800)
        #expect(cache.isSweepEnabled)
        #expect(cache.periodicSweepCount == 0)
    }

    @Test func periodicSweepRemovesExpiredEntries() async throws {
        // Given an entry that expired but was never read again
        let cache = try directory.makeCache(clock: clock.now)
        cache.storeData(blob, for: "a", ttl: 10)
        cache["b"] = otherBlob
        cache.flush()
        clock.advance(seconds: 11)
        #expect(cache.entryFiles.count == 2)

        // When the sweep interval is short
        cache.sweepInterval = 0.02

        // Then a background sweep removes it, and sweeps keep coming
        #expect(await eventually { cache.entryFiles == [cache.entryURL(for: "b")] })
        #expect(await eventually { cache.periodicSweepCount >= 2 })
        #expect(cache.totalCount == 1)
        #expect(cache["b"] == otherBlob)
    }

    @Test func periodicSweepTrimsOverTheLimit() async throws {
        // Given entries over the limit that this instance has not seen: another instance wrote them and the
        // journal was lost, so neither lowering the limit nor a flush trims them; only a sweep, which reconciles
        // with the directory, finds them
        let cache = try directory.makeCache()
        cache.isSweepEnabled = false
        let writer = try directory.makeCache()
        for index in 0..<10 {
            writer["k\(index)"] = Data(count: 1_000)
        }
        writer.flush()
        try FileManager.default.removeItem(at: cache.path.appendingPathComponent(".datacache/journal"))
        cache.sizeLimit = 5_000

        // When sweeps are turned on with a short interval
        cache.sweepInterval = 0.02
        cache.isSweepEnabled = true

        // Then
        #expect(await eventually { cache.entryFiles.count <= 3 })
        #expect(cache.totalSize <= 3_500)
    }

    @Test func disabledSweepDoesNotRun() async throws {
        // Given sweeps that ran
        let cache = try directory.makeCache()
        cache.sweepInterval = 0.01
        #expect(await eventually { cache.periodicSweepCount >= 1 })

        // When they are turned off
        cache.isSweepEnabled = false
        cache.flush()  // a sweep already running on the queue finishes first
        let count = cache.periodicSweepCount

        // Then no more run over many intervals (a bounded wait for something that must not happen)
        try await Task.sleep(for: .milliseconds(200))
        #expect(cache.periodicSweepCount == count)
    }

    @Test func scheduleDoesNotKeepTheCacheAlive() async throws {
        // Given a cache sweeping often
        weak var weakCache: DataCache?
        do {
            let cache = try DataCache(path: directory.path("solo"))
            cache.sweepInterval = 0.01
            #expect(await eventually { cache.periodicSweepCount >= 1 })
            weakCache = cache
        }

        // Then, once released, it is deallocated (a sweep in progress may hold it for a moment)
        #expect(await eventually { weakCache == nil })
    }

    @Test func totalAllocatedSizeIsTheBlocksOfTheFiles() throws {
        // Given
        let cache = try directory.makeCache()
        #expect(cache.totalAllocatedSize == 0)
        for index in 0..<3 {
            cache["k\(index)"] = Data(repeating: 7, count: 10_000 * (index + 1))
        }
        cache.flush()

        // When
        let allocated = cache.totalAllocatedSize

        // Then it is what `stat` reports for the entry files
        let blocks = cache.entryFiles.reduce(0) { total, url in
            var status = stat()
            return stat(url.path, &status) == 0 ? total + Int(status.st_blocks) * 512 : total
        }
        #expect(allocated == blocks)
        #expect(allocated >= cache.totalSize)
        #expect(cache.totalSize == 60_000)

        // And it drops when entries go
        cache.removeAll()
        cache.flush()
        #expect(cache.totalAllocatedSize == 0)
    }

    @Test func queueRunsTheBackgroundWrites() async throws {
        // Given a write that is staged
        let cache = try directory.makeCache()
        cache["key"] = blob

        // When a block queued after it runs
        let queue = cache.queue
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }

        // Then the background flush, queued before it, has written the entry
        #expect(cache.payloadOnDisk(for: "key") == blob)
        #expect(cache.statistics.writeCount == 1)
    }

    @Test func subscriptStoresReadsAndRemoves() throws {
        let cache = try directory.makeCache()
        cache["key"] = blob
        #expect(cache["key"] == blob)
        cache.flush()
        #expect(cache.cachedData(for: "key") == blob)
        cache["key"] = nil
        #expect(cache["key"] == nil)
        cache.flush()
        #expect(cache.entryFiles.isEmpty)
    }
}
