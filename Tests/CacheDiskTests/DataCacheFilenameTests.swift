import Foundation
import Testing

@testable import CacheDisk

/// The default file names, custom `FilenameGenerator`s, and generators that return names that must not be used.
@Suite struct DataCacheFilenameTests {
    let directory = TemporaryDirectory()

    /// A cache in the subdirectory "cache" with `generator`, flushed before the directory is removed.
    private func makeCache(_ generator: @escaping DataCache.FilenameGenerator) throws -> DataCache {
        let cache = try DataCache(path: directory.path("cache"), filenameGenerator: generator)
        cache.isSweepEnabled = false
        return cache
    }

    /// The names in the cache directory, without the metadata directory.
    private func names(in cache: DataCache) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.path.path)) ?? [])
            .filter { $0 != ".datacache" }.sorted()
    }

    @Test func defaultNameIsTheSHA256OfTheKey() throws {
        let cache = try directory.makeCache()
        let expected = "8b408a0c7163fdfff06ced3e80d7d2b3acd9db900905c4783c28295b8c996165"
        #expect(DataCache.filename(for: "http://test.com") == expected)
        #expect(cache.filename(for: "http://test.com") == expected)
        // Canonically equivalent keys have one name
        #expect(DataCache.filename(for: "caf\u{65}\u{301}") == DataCache.filename(for: "caf\u{e9}"))

        cache["http://test.com"] = blob
        cache.flush()
        #expect(names(in: cache) == [expected])
    }

    @Test func customGeneratorNamesTheFiles() throws {
        // Given
        let cache = try makeCache { "image-" + $0 + ".png" }

        // When
        cache["a"] = blob
        cache["b"] = otherBlob
        cache.flush()

        // Then
        #expect(cache.filename(for: "a") == "image-a.png")
        #expect(names(in: cache) == ["image-a.png", "image-b.png"])
        #expect(cache["a"] == blob)
        #expect(cache["b"] == otherBlob)
        #expect(try Data(contentsOf: try #require(cache.url(for: "a"))) == blob)
        #expect(cache.url(for: "a")?.lastPathComponent == "image-a.png")
        #expect(cache.totalCount == 2)
        #expect(cache.totalSize == blob.count + otherBlob.count)
    }

    @Test func customNamesSurviveReopeningWithoutAJournal() throws {
        // Given entries with custom names, and a lost journal
        let cache = try makeCache { "k-" + $0 }
        cache["a"] = blob
        cache["b"] = otherBlob
        cache.flush()
        try FileManager.default.removeItem(at: cache.path.appendingPathComponent(".datacache/journal"))

        // When
        let reopened = try makeCache { "k-" + $0 }

        // Then the files are found again by their headers
        #expect(reopened.totalCount == 2)
        #expect(reopened.totalSize == blob.count + otherBlob.count)
        #expect(reopened["a"] == blob)
    }

    @Test func anotherInstanceEvictsEntriesItKnowsOnlyFromTheJournal() throws {
        // Given custom-named entries written by one instance
        let first = try makeCache { "k-" + $0 }
        let second = try makeCache { "k-" + $0 }
        for index in 0..<4 {
            first["\(index)"] = Data(count: 1_000)
            first.flush()
        }

        // When the other instance, which never saw these names, goes over its limit
        second.sizeLimit = 4_500
        second["new"] = Data(count: 1_000)
        second.flush()

        // Then it evicted the oldest by their files (down to 70 %: three entries stay)
        #expect(second.totalCount == 3)
        #expect(names(in: second) == ["k-2", "k-3", "k-new"])
    }

    @Test func generatorReturningNilMeansNotCached() throws {
        // Given a generator that caches only keys starting with "keep"
        let cache = try makeCache { $0.hasPrefix("keep") ? "f-" + $0 : nil }

        // When
        cache["keep"] = blob
        cache["skip"] = blob
        cache.storeData(blob, for: "skip-too", ttl: 60)

        // Then
        #expect(cache["skip"] == nil)
        #expect(!cache.containsData(for: "skip"))
        #expect(cache.filename(for: "skip") == nil)
        cache.flush()
        #expect(names(in: cache) == ["f-keep"])
        #expect(cache.url(for: "skip") == nil)
        #expect(cache["keep"] == blob)
        #expect(cache.lastError == nil)
    }

    @Test(arguments: [
        "../escape", "../../escape", "/tmp/escape", "a/b", "..", ".", "", ".hidden", ".datacache", "x\0y",
        String(repeating: "a", count: 256), String(repeating: "é", count: 128),
    ])
    func hostileNameIsNotCachedAndNothingLeavesTheDirectory(_ hostile: String) throws {
        // Given
        let cache = try makeCache { _ in hostile }

        // When
        cache["key"] = blob
        cache.flush()

        // Then nothing was written, in the cache directory or around it
        #expect(cache["key"] == nil)
        #expect(!cache.containsData(for: "key"))
        #expect(cache.url(for: "key") == nil)
        #expect(cache.filename(for: "key") == nil)
        #expect(names(in: cache).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["cache"])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/escape"))
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: cache.path.appendingPathComponent(".datacache/tmp").path
            )
            .isEmpty)
        #expect(cache.lastError == .invalidFilename(key: "key", filename: hostile))
        #expect(cache.statistics.writeCount == 0)
    }

    @Test func longestNameIsAccepted() throws {
        let name = String(repeating: "a", count: 255)
        let cache = try makeCache { _ in name }
        cache["key"] = blob
        cache.flush()
        #expect(names(in: cache) == [name])
        #expect(cache["key"] == blob)
    }

    @Test func keysSharingANameDoNotReadEachOther() throws {
        // Given a generator that gives every key the same name
        let cache = try makeCache { _ in "shared" }

        // When
        cache["a"] = blob
        cache.flush()
        cache["b"] = otherBlob
        cache.flush()

        // Then the last write wins the file, and the other key misses without damaging it
        #expect(cache["a"] == nil)
        #expect(cache.url(for: "a") == nil)
        #expect(cache["b"] == otherBlob)
        #expect(cache.statistics.damagedEntryCount == 0)
        #expect(names(in: cache) == ["shared"])
        #expect(cache.totalCount == 1)
    }

    @Test func removeAllLeavesFilesTheCacheDidNotWrite() throws {
        // Given custom-named entries, and a file of the user's in the directory
        let cache = try makeCache { "k-" + $0 }
        cache["a"] = blob
        cache.flush()
        try Data("mine".utf8).write(to: cache.path.appendingPathComponent("notes.txt"))

        // When
        cache.removeAll()
        cache.flush()
        cache.sweep()

        // Then
        #expect(names(in: cache) == ["notes.txt"])
        #expect(cache["a"] == nil)
        #expect(cache.totalCount == 0)
    }

    @Test func initWithNameTakesAGenerator() throws {
        // Given
        let name = "CacheDiskTests-\(UUID().uuidString)"
        defer {
            if let url = try? DataCache.directory(forName: name, environment: ProcessInfo.processInfo.environment) {
                try? FileManager.default.removeItem(at: url)
            }
        }

        // When
        let cache = try DataCache(name: name, filenameGenerator: { "n-" + $0 })
        cache["key"] = blob
        cache.flush()

        // Then
        #expect(names(in: cache) == ["n-key"])
    }
}
