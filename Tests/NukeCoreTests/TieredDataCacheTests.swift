import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite struct TieredDataCacheTests {
    private static let conformance = DataCachingConformance(makeCache: {
        TieredDataCache(local: MockDataCache(), shared: MockDataCache())
    })
    private static let threeTiers = DataCachingConformance(makeCache: {
        TieredDataCache([MockDataCache(), MockDataCache(), MockDataCache()])
    })

    @Test(arguments: conformance.checks)
    func conforms(_ check: DataCachingConformance<TieredDataCache>.Check) async throws {
        try await Self.conformance.run(check)
    }

    @Test(arguments: threeTiers.checks)
    func threeTiersConform(_ check: DataCachingConformance<TieredDataCache>.Check) async throws {
        try await Self.threeTiers.run(check)
    }

    @Test func aSharedHitFillsTheLocalTier() {
        let local = MockDataCache()
        let shared = MockDataCache()
        shared.storeData(Data([1, 2, 3]), for: "a")
        let cache = TieredDataCache(local: local, shared: shared)

        #expect(cache.cachedData(for: "a") == Data([1, 2, 3]))
        #expect(local.store["a"] == Data([1, 2, 3]))
        #expect(cache.cachedData(for: "missing") == nil)
        #expect(local.store["missing"] == nil)
    }

    @Test func writesAndRemovalsReachEveryTier() {
        let local = MockDataCache()
        let shared = MockDataCache()
        let cache = TieredDataCache(local: local, shared: shared)

        cache.storeData(Data([9]), for: "k")
        #expect(local.store["k"] == Data([9]) && shared.store["k"] == Data([9]))
        #expect(cache.containsData(for: "k"))
        cache.removeData(for: "k")
        #expect(local.store["k"] == nil && shared.store["k"] == nil)
        cache.storeData(Data([8]), for: "j")
        cache.removeAll()
        #expect(local.store.isEmpty && shared.store.isEmpty)
    }

    /// A shared tier whose read of `key` waits until told, so a write can land while the read is under way.
    private final class SlowTier: DataCaching, @unchecked Sendable {
        // @unchecked: `base` is thread-safe; `readStarted` and `release` are semaphores.
        let base = MockDataCache()
        let readStarted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func cachedData(for key: String) -> Data? {
            let data = base.cachedData(for: key)
            readStarted.signal()
            release.wait()
            return data
        }
        func containsData(for key: String) -> Bool { base.containsData(for: key) }
        func storeData(_ data: Data, for key: String) { base.storeData(data, for: key) }
        func removeData(for key: String) { base.removeData(for: key) }
        func removeAll() { base.removeAll() }
    }

    @Test func aFillNeverBringsBackDataReplacedDuringTheRead() {
        let local = MockDataCache()
        let shared = SlowTier()
        shared.base.storeData(Data([1]), for: "k")
        let cache = TieredDataCache(local: local, shared: shared)

        // The reader blocks inside the shared tier: on a thread of its own, never a Swift concurrency one.
        let read = ThreadResult<Data?>()
        Thread { read.set(cache.cachedData(for: "k")) }.start()
        shared.readStarted.wait()
        cache.storeData(Data([2]), for: "k")  // Lands while the read of the old value is under way.
        shared.release.signal()
        #expect(read.wait() == Data([1]))

        #expect(local.store["k"] == Data([2]))  // Not overwritten by the fill of the old value.
        #expect(cache.cachedData(for: "k") == Data([2]))
    }
}

/// The value a thread produces, waited for by another.
private final class ThreadResult<Value>: @unchecked Sendable {
    // @unchecked: `value` is written once before `done` is signalled and read only after waiting for it.
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    func set(_ value: Value) {
        self.value = value
        done.signal()
    }

    func wait() -> Value? {
        done.wait()
        return value
    }
}
