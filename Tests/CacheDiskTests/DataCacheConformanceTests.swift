import CacheDisk
import Foundation
import NukeTestKit
import Testing

/// NukeTestKit's public `DataCaching` conformance suite, run against the real disk cache.
private let conformance = DataCachingConformance<DataCache>(
    makeCache: {
        try DataCache(
            path: FileManager.default.temporaryDirectory
                .appendingPathComponent("CacheDiskConformance-\(UUID().uuidString)", isDirectory: true))
    },
    flush: { $0.flush() },
    reopen: { try DataCache(path: $0.path) },
    cleanUp: { cache in
        cache.flush()  // no background write may bring the directory back
        try FileManager.default.removeItem(at: cache.path)
    }
)

@Suite struct DataCacheConformanceTests {
    @Test(arguments: conformance.checks)
    func conforms(_ check: DataCachingConformance<DataCache>.Check) async throws {
        try await conformance.run(check)
    }

    @Test func includesThePersistenceCheck() {
        #expect(conformance.checks.map(\.name).contains("flushedDataSurvivesReopening"))
    }
}
