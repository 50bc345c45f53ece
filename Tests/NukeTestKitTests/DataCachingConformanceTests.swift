import Foundation
import NukeCore
import NukeTestKit
import Testing

/// The public conformance suite: `MockDataCache` passes it, and broken caches fail it with readable messages.
@Suite struct DataCachingConformanceTests {
    private static let mockConformance = DataCachingConformance(makeCache: { MockDataCache() })

    @Test(arguments: mockConformance.checks)
    func mockDataCacheConforms(_ check: DataCachingConformance<MockDataCache>.Check) async throws {
        try await Self.mockConformance.run(check)
    }

    @Test func withoutReopenThePersistenceCheckIsLeftOut() {
        let names = Self.mockConformance.checks.map(\.name)
        #expect(!names.contains("flushedDataSurvivesReopening"))
        #expect(names.contains("keysAreDistinct"))
        #expect(names.count == 13)
    }

    @Test func cacheThatMixesUpKeysFailsWithADescriptiveMessage() async throws {
        // Given a cache that folds keys to lower case
        let conformance = DataCachingConformance(makeCache: { CaseFoldingCache() })
        let check = try #require(conformance.checks.first { $0.name == "keysAreDistinct" })

        // When/Then
        let error = await #expect(throws: DataCachingConformance<CaseFoldingCache>.Failure.self) {
            try await conformance.run(check)
        }
        #expect(error?.check == "keysAreDistinct")
        #expect(error?.description.contains("cachedData(for: \"") == true)
    }

    @Test func runAllListsEveryFailingCheck() async throws {
        // Given a cache whose removeAll does nothing, and that folds keys
        let conformance = DataCachingConformance(makeCache: { CaseFoldingCache(ignoresRemoveAll: true) })

        // When
        let error = await #expect(throws: DataCachingConformance<CaseFoldingCache>.Failures.self) {
            try await conformance.runAll()
        }

        // Then
        let failed = Set(error?.failures.map(\.check) ?? [])
        #expect(failed == ["keysAreDistinct", "removeAllDeletesEverything", "storeAfterRemoveAllIsKept"])
        #expect(error?.description.contains("3 DataCaching conformance check(s) failed") == true)
    }

    @Test func cleanUpRunsAfterEveryCheckEvenWhenItFails() async throws {
        // Given
        let cleaned = CallCounter()
        let conformance = DataCachingConformance(
            makeCache: { CaseFoldingCache() }, cleanUp: { _ in cleaned.increment() })

        // When
        _ = try? await conformance.runAll()

        // Then
        #expect(cleaned.total == conformance.checks.count)
    }
}

/// A deliberately broken cache: keys that differ only in case share an entry; optionally `removeAll` is a no-op.
private final class CaseFoldingCache: DataCaching {
    private let storage = MockDataCache()
    private let ignoresRemoveAll: Bool

    init(ignoresRemoveAll: Bool = false) {
        self.ignoresRemoveAll = ignoresRemoveAll
    }

    func cachedData(for key: String) -> Data? { storage.cachedData(for: key.lowercased()) }
    func containsData(for key: String) -> Bool { storage.containsData(for: key.lowercased()) }
    func storeData(_ data: Data, for key: String) { storage.storeData(data, for: key.lowercased()) }
    func removeData(for key: String) { storage.removeData(for: key.lowercased()) }
    func removeAll() {
        if !ignoresRemoveAll { storage.removeAll() }
    }
}
