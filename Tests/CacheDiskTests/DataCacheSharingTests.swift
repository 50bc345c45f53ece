import Foundation
import Testing

@testable import CacheDisk

/// Several instances and processes on one directory: no torn reads, no lost journal, and everyone sees what
/// was flushed.
@Suite struct DataCacheSharingTests {
    let directory = TemporaryDirectory()
    var path: URL { directory.path("cache") }

    @Test func freshInstanceSeesWhatAnEarlierOneFlushed() throws {
        // Given
        let first = try directory.makeCache()
        for index in 0..<20 { first["k\(index)"] = writerPayload(index: index) }
        first.flush()

        // When
        let second = try directory.makeCache()

        // Then
        for index in 0..<20 { #expect(second["k\(index)"] == writerPayload(index: index)) }
        #expect(second.totalCount == 20)
        #expect(second.totalSize == first.totalSize)
    }

    @Test func runningInstancesSeeEachOthersChanges() throws {
        // Given two instances open at once
        let first = try directory.makeCache()
        let second = try directory.makeCache()

        // When one writes, the other reads it and counts it
        first["a"] = blob
        first["b"] = otherBlob
        first.flush()
        #expect(second["a"] == blob)
        #expect(second.totalCount == 2)

        // When the other removes one, the first sees it gone
        second["a"] = nil
        second.flush()
        #expect(first["a"] == nil)
        #expect(first.totalCount == 1)
        #expect(first.totalSize == 3)

        // When the first removes everything, the second sees an empty cache
        first.removeAll()
        first.flush()
        #expect(second["b"] == nil)
        #expect(second.totalCount == 0)
    }

    @Test func evictionBySecondInstanceUsesReadsOfTheFirst() throws {
        // Given ten entries written by one instance, of which k0 was read last by another
        let first = try directory.makeCache()
        let second = try directory.makeCache()
        let entrySize = 1_000
        for index in 0..<10 {
            first["k\(index)"] = Data(count: 1_000)
            first.flush()
        }
        #expect(second["k0"] != nil)
        second.flush()

        // When the first goes over its limit
        first.sizeLimit = entrySize * 10 + entrySize / 2
        first["k10"] = Data(count: 1_000)
        first.flush()

        // Then k0 survived the trim and the oldest were evicted
        #expect(first.containsData(for: "k0"))
        #expect(!first.containsData(for: "k1"))
        #expect(second.totalCount == 7)
    }

    @Test func twoInstancesWritingConcurrentlyNeverTearReads() async throws {
        // Given two instances and several versions of each shared key
        let caches = [try directory.makeCache(), try directory.makeCache()]
        let keys = (0..<8).map { "shared-\($0)" }
        @Sendable func version(_ key: String, _ writer: Int) -> Data {
            var data = Data(repeating: UInt8(writer), count: 20_000 + writer * 5_000)
            data.append(contentsOf: Array(key.utf8))
            return data
        }

        // When both write and read the same keys from several tasks
        let badReads = await withTaskGroup(of: Int.self) { group in
            for writer in 0..<6 {
                group.addTask {
                    var bad = 0
                    let cache = caches[writer % 2]
                    for round in 0..<150 {
                        let key = keys[(round + writer) % keys.count]
                        cache[key] = version(key, writer)
                        let reader = caches[(writer + round) % 2]
                        if let data = reader[keys[round % keys.count]] {
                            let key = keys[round % keys.count]
                            if !(0..<6).contains(where: { version(key, $0) == data }) { bad += 1 }
                        }
                        if round % 25 == 0 { cache.flush() }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        for cache in caches { cache.flush() }

        // Then every read was one of the stored versions, and both agree on the totals
        #expect(badReads == 0)
        #expect(caches[0].totalCount == keys.count)
        #expect(caches[1].totalCount == keys.count)
        #expect(caches[0].totalSize == caches[1].totalSize)
        #expect(caches[0].statistics.damagedEntryCount == 0 && caches[1].statistics.damagedEntryCount == 0)
        for key in keys {
            let data = caches[0][key]
            #expect(data != nil && caches[1][key] == data)
        }
    }

    // MARK: Other processes

    @Test func entriesWrittenByAnotherProcessAreReadBack() async throws {
        // Given a cache open before the other process starts
        let cache = try directory.makeCache()

        // When a child process writes 300 entries and exits
        let child = try ChildWriter(directory: path, count: 300, prefix: "child", flushEvery: 50)
        #expect(await child.waitForLine { $0 == "done" } == "done")
        let exit = await child.waitForExit()
        #expect(exit.status == 0 && !exit.wasKilledBySignal)

        // Then
        for index in 0..<300 { #expect(cache["child-\(index)"] == writerPayload(index: index)) }
        #expect(cache.totalCount == 300)
    }

    @Test func processKilledWhileWritingLeavesOnlyExactEntriesOrMisses() async throws {
        // Given a child rewriting thousands of entries over and over, killed with SIGKILL in the middle
        let count = 3_000
        let child = try ChildWriter(directory: path, count: count, prefix: "k", flushEvery: 250, forever: true)
        let line = await child.waitForLine { $0 == "flushed 1000" }
        try #require(line != nil, "the child stopped before flushing 1000 entries")
        child.kill()
        let exit = await child.waitForExit()
        #expect(exit.wasKilledBySignal)

        // When a fresh cache opens the directory
        let cache = try directory.makeCache()

        // Then every entry reads back as exactly one of the versions written, or is a miss; the entries flushed
        // before the kill are all there
        var hits = 0
        for index in 0..<count {
            guard let data = cache["k-\(index)"] else {
                #expect(index >= 1_000, "entry \(index) was flushed before the kill but is missing")
                continue
            }
            let version = try #require(writerPayloadVersion(data), "entry \(index) has no version")
            #expect(data == writerPayload(index: index, version: version), "entry \(index) read back wrong")
            hits += 1
        }
        #expect(hits >= 1_000)
        #expect(cache.statistics.damagedEntryCount == 0)

        // And the index agrees with the directory after a sweep; the child's temporary files are gone
        cache.sweep()
        #expect(cache.totalCount == hits)
        #expect(cache.entryFiles.count == hits)
        let temporary = try FileManager.default.contentsOfDirectory(atPath: path.path + "/.datacache/tmp")
        #expect(temporary.isEmpty)
    }

    @Test func parentAndChildWritingAtOnceSeeEachOthersEntries() async throws {
        // Given
        let cache = try directory.makeCache()
        let child = try ChildWriter(directory: path, count: 1_000, prefix: "child", flushEvery: 100)

        // When this process writes too, reading the child's entries as they appear
        var badReads = 0
        for index in 0..<1_000 {
            cache["parent-\(index)"] = writerPayload(index: index + 7)
            if let data = cache["child-\(index)"], data != writerPayload(index: index) { badReads += 1 }
            if index % 100 == 99 { cache.flush() }
        }
        cache.flush()
        #expect(await child.waitForLine { $0 == "done" } == "done")
        #expect(await child.waitForExit().status == 0)

        // Then
        #expect(badReads == 0)
        for index in 0..<1_000 {
            #expect(cache["child-\(index)"] == writerPayload(index: index))
            #expect(cache["parent-\(index)"] == writerPayload(index: index + 7))
        }
        #expect(cache.totalCount == 2_000)
        #expect(try directory.makeCache().totalCount == 2_000)
    }
}
