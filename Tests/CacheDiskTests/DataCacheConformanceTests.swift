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
        guard check.name == "keysAreDistinct" else {
            try await conformance.run(check)
            return
        }
        // The check stores the empty key and expects it back; like Nuke, DataCache never stores it (see
        // `DataCacheInspectionTests.emptyKeyIsNeverStored`), and `keysOtherThanTheEmptyOneAreDistinct` below covers
        // the rest of its keys. This reports an issue of its own once the check accepts that behaviour.
        await withKnownIssue("NukeTestKit's keysAreDistinct expects the empty key to be stored") {
            try await conformance.run(check)
        }
    }

    /// The keys of the conformance suite's `keysAreDistinct` check, without the empty key.
    @Test func keysOtherThanTheEmptyOneAreDistinct() async throws {
        let directory = TemporaryDirectory()
        let cache = try directory.makeCache()
        let long = String(repeating: "k", count: 4_000)
        let keys = [
            "a", "A", "a ", " a", "a/b", "a\\b", "../a", "../../etc/passwd", "/", ".", "..", "a\u{0}b", "ключ", "🙂",
            "\u{e9}", "https://example.com/a.jpeg?w=100", "https://example.com/a.jpeg?w=200", long, long + "x",
            long + "y",
        ]
        for key in keys { cache.storeData(Data(("value of " + key).utf8), for: key) }
        for key in keys { #expect(cache.cachedData(for: key) == Data(("value of " + key).utf8), "staged \(key)") }
        cache.flush()
        for key in keys { #expect(cache.cachedData(for: key) == Data(("value of " + key).utf8), "flushed \(key)") }
        #expect(cache.totalCount == keys.count)
    }

    @Test func includesThePersistenceCheck() {
        #expect(conformance.checks.map(\.name).contains("flushedDataSurvivesReopening"))
    }
}
