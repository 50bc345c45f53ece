import Foundation
import NukeServe
import NukeTestKit
import Testing

@Suite struct MemoryDataCacheTests {
    static let conformance = DataCachingConformance(makeCache: { MemoryDataCache(costLimit: 64 << 20) })

    @Test(arguments: conformance.checks)
    func conformsToDataCaching(_ check: DataCachingConformance<MemoryDataCache>.Check) async throws {
        try await Self.conformance.run(check)
    }

    @Test func evictsTheLeastRecentlyUsedPastItsLimit() {
        let cache = MemoryDataCache(costLimit: 10)
        cache.storeData(Data(count: 4), for: "a")
        cache.storeData(Data(count: 4), for: "b")
        _ = cache.cachedData(for: "a")  // "b" is now the least recently used
        cache.storeData(Data(count: 4), for: "c")
        cache.storeData(Data(count: 11), for: "too big")

        #expect(cache.containsData(for: "a") && cache.containsData(for: "c"))
        #expect(!cache.containsData(for: "b") && !cache.containsData(for: "too big"))
        #expect(cache.totalCost == 8)
        cache.storeData(Data(count: 2), for: "a")
        #expect(cache.totalCost == 6 && cache.cachedData(for: "a")?.count == 2)
    }
}
