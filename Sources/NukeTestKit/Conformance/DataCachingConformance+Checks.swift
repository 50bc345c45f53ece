import Foundation
import NukeCore

extension DataCachingConformance {
    static var allChecks: [Check] {
        [
            Check(name: "unknownKeyIsMiss") { suite, cache in try await suite.unknownKeyIsMiss(cache) },
            Check(name: "storedDataIsReadableAtOnce") { suite, cache in try await suite.storedDataIsReadable(cache) },
            Check(name: "storeReplacesEarlierValue") { suite, cache in try await suite.storeReplaces(cache) },
            Check(name: "removeDeletesData") { suite, cache in try await suite.removeDeletes(cache) },
            Check(name: "removeOfUnknownKeyIsHarmless") { suite, cache in try await suite.removeUnknown(cache) },
            Check(name: "removeAllDeletesEverything") { suite, cache in try await suite.removeAllDeletes(cache) },
            Check(name: "storeAfterRemoveAllIsKept") { suite, cache in try await suite.storeAfterRemoveAll(cache) },
            Check(name: "keysAreDistinct") { suite, cache in try await suite.keysAreDistinct(cache) },
            Check(name: "equivalentKeysAreConsistent") { suite, cache in try await suite.equivalentKeys(cache) },
            Check(name: "binaryDataRoundTrips") { suite, cache in try await suite.binaryDataRoundTrips(cache) },
            Check(name: "largeDataRoundTrips") { suite, cache in try await suite.largeDataRoundTrips(cache) },
            Check(name: "containsDataAgreesWithCachedData") { suite, cache in try await suite.containsAgrees(cache) },
            Check(name: "concurrentReadsSeeOnlyStoredData") { suite, cache in try await suite.concurrent(cache) },
            Check(name: "flushedDataSurvivesReopening") { suite, cache in try await suite.survivesReopening(cache) },
        ]
    }

    // MARK: Checks

    func unknownKeyIsMiss(_ cache: Cache) async throws {
        for key in ["a", "", "https://example.com/image.jpeg"] {
            try expectData(cache, key, nil, "unknownKeyIsMiss", "in a new cache")
        }
    }

    func storedDataIsReadable(_ cache: Cache) async throws {
        let check = "storedDataIsReadableAtOnce"
        cache.storeData(payload("a"), for: "a")
        try expectData(cache, "a", payload("a"), check, "right after storeData")
        try await flush(cache)
        try expectData(cache, "a", payload("a"), check, "after a flush")
    }

    func storeReplaces(_ cache: Cache) async throws {
        let check = "storeReplacesEarlierValue"
        cache.storeData(payload("old"), for: "a")
        cache.storeData(payload("new"), for: "a")
        try expectData(cache, "a", payload("new"), check, "after two staged stores")
        try await flush(cache)
        try expectData(cache, "a", payload("new"), check, "after two stores and a flush")
        cache.storeData(payload("newer"), for: "a")
        try expectData(cache, "a", payload("newer"), check, "after replacing a flushed value")
        try await flush(cache)
        try expectData(cache, "a", payload("newer"), check, "after replacing a flushed value and flushing")
    }

    func removeDeletes(_ cache: Cache) async throws {
        let check = "removeDeletesData"
        cache.storeData(payload("a"), for: "a")
        cache.removeData(for: "a")
        try expectData(cache, "a", nil, check, "after store then remove")
        try await flush(cache)
        try expectData(cache, "a", nil, check, "after store, remove, flush")

        cache.storeData(payload("b"), for: "b")
        try await flush(cache)
        cache.removeData(for: "b")
        try expectData(cache, "b", nil, check, "after removing a flushed value")
        try await flush(cache)
        try expectData(cache, "b", nil, check, "after removing a flushed value and flushing")

        cache.storeData(payload("c1"), for: "c")
        try await flush(cache)
        cache.removeData(for: "c")
        cache.storeData(payload("c2"), for: "c")
        try await flush(cache)
        try expectData(cache, "c", payload("c2"), check, "after remove then store of a flushed key")
    }

    func removeUnknown(_ cache: Cache) async throws {
        let check = "removeOfUnknownKeyIsHarmless"
        cache.storeData(payload("a"), for: "a")
        cache.removeData(for: "missing")
        try await flush(cache)
        try expectData(cache, "missing", nil, check, "after removing it")
        try expectData(cache, "a", payload("a"), check, "after removing another, unknown key")
    }

    func removeAllDeletes(_ cache: Cache) async throws {
        let check = "removeAllDeletesEverything"
        let keys = (0..<5).map { "key-\($0)" }
        for key in keys.prefix(3) { cache.storeData(payload(key), for: key) }
        try await flush(cache)
        for key in keys.suffix(2) { cache.storeData(payload(key), for: key) }
        cache.removeAll()
        for key in keys { try expectData(cache, key, nil, check, "right after removeAll") }
        try await flush(cache)
        for key in keys { try expectData(cache, key, nil, check, "after removeAll and a flush") }
    }

    func storeAfterRemoveAll(_ cache: Cache) async throws {
        let check = "storeAfterRemoveAllIsKept"
        cache.storeData(payload("old"), for: "a")
        cache.storeData(payload("b"), for: "b")
        try await flush(cache)
        cache.removeAll()
        cache.storeData(payload("new"), for: "a")
        try expectData(cache, "a", payload("new"), check, "stored after removeAll, before a flush")
        try expectData(cache, "b", nil, check, "removed by removeAll, before a flush")
        try await flush(cache)
        try expectData(cache, "a", payload("new"), check, "stored after removeAll, after a flush")
        try expectData(cache, "b", nil, check, "removed by removeAll, after a flush")
        cache.storeData(payload("c"), for: "c")
        cache.removeAll()
        cache.storeData(payload("d"), for: "d")
        cache.removeAll()
        try await flush(cache)
        for key in ["a", "c", "d"] { try expectData(cache, key, nil, check, "after a second removeAll") }
    }

    func keysAreDistinct(_ cache: Cache) async throws {
        let check = "keysAreDistinct"
        let long = String(repeating: "k", count: 4_000)
        let keys = [
            "a", "A", "a ", " a", "a/b", "a\\b", "../a", "../../etc/passwd", "/", ".", "..", "a\u{0}b", "ключ",
            "🙂", "\u{e9}", "https://example.com/a.jpeg?w=100", "https://example.com/a.jpeg?w=200",
            long, long + "x", long + "y",
        ]
        // The empty key may be stored or ignored (Nuke's DataCache ignores it), never confused with another key.
        cache.storeData(payload(""), for: "")
        for key in keys { cache.storeData(payload(key), for: key) }
        for key in keys { try expectData(cache, key, payload(key), check, "before a flush") }
        try await flush(cache)
        for key in keys { try expectData(cache, key, payload(key), check, "after a flush") }
        if let empty = cache.cachedData(for: ""), empty != payload("") {
            throw Failure(check: check, message: "cachedData(for: \"\") returned data stored for another key")
        }
    }

    /// `"e\u{301}"` and `"\u{e9}"` are equal Swift strings with different UTF-8 bytes. A cache may treat them
    /// as one key (as `String` equality does) or as two, but must give the same answers before and after a flush.
    func equivalentKeys(_ cache: Cache) async throws {
        let check = "equivalentKeysAreConsistent"
        let decomposed = "e\u{301}"
        let precomposed = "\u{e9}"
        cache.storeData(payload("decomposed"), for: decomposed)
        cache.storeData(payload("precomposed"), for: precomposed)
        let staged = cache.cachedData(for: decomposed)
        guard staged == payload("decomposed") || staged == payload("precomposed") else {
            throw Failure(check: check, message: "cachedData(for: \"e\\u{301}\") returned neither stored value")
        }
        try expectData(cache, precomposed, payload("precomposed"), check, "before a flush")
        try await flush(cache)
        try expectData(cache, decomposed, staged, check, "after a flush (as before it)")
        try expectData(cache, precomposed, payload("precomposed"), check, "after a flush")
    }

    func binaryDataRoundTrips(_ cache: Cache) async throws {
        let check = "binaryDataRoundTrips"
        let allBytes = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0) })
        let zeros = Data(count: 1_000)
        let single = Data([0])
        cache.storeData(allBytes, for: "all-bytes")
        cache.storeData(zeros, for: "zeros")
        cache.storeData(single, for: "single")
        try await flush(cache)
        try expectData(cache, "all-bytes", allBytes, check, "after a flush")
        try expectData(cache, "zeros", zeros, check, "after a flush")
        try expectData(cache, "single", single, check, "after a flush")
    }

    func largeDataRoundTrips(_ cache: Cache) async throws {
        let check = "largeDataRoundTrips"
        var generator = SplitMix(seed: 42)
        var large = Data(count: 8 << 20)
        large.withUnsafeMutableBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 8) {
                bytes.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
            }
        }
        cache.storeData(large, for: "large")
        try expectData(cache, "large", large, check, "right after storeData")
        try await flush(cache)
        try expectData(cache, "large", large, check, "after a flush")
    }

    func containsAgrees(_ cache: Cache) async throws {
        let check = "containsDataAgreesWithCachedData"
        func expectContains(_ key: String, _ expected: Bool, _ when: String) throws {
            let contains = cache.containsData(for: key)
            let data = cache.cachedData(for: key)
            guard contains == expected, (data != nil) == expected else {
                throw Failure(
                    check: check,
                    message: "\(when): containsData(for: \"\(key)\") = \(contains), cachedData "
                        + (data == nil ? "nil" : "\(data?.count ?? 0) bytes") + ", expected "
                        + (expected ? "both to find it" : "neither to find it"))
            }
        }
        try expectContains("a", false, "before storing")
        cache.storeData(payload("a"), for: "a")
        try expectContains("a", true, "after storeData")
        try await flush(cache)
        try expectContains("a", true, "after a flush")
        cache.removeData(for: "a")
        try expectContains("a", false, "after removeData")
        try await flush(cache)
        try expectContains("a", false, "after removeData and a flush")
    }

    func concurrent(_ cache: Cache) async throws {
        let check = "concurrentReadsSeeOnlyStoredData"
        let workers = 8
        let rounds = 40
        let sharedKeys = (0..<4).map { "shared-\($0)" }
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var failures: [String] = []
                    for round in 0..<rounds {
                        let own = "own-\(worker)-\(round % 5)"
                        let ownValue = self.payload("\(own)#\(round)")
                        cache.storeData(ownValue, for: own)
                        if cache.cachedData(for: own) != ownValue {
                            failures.append("\(own) did not read back the value just stored by its only writer")
                        }
                        let shared = sharedKeys[round % sharedKeys.count]
                        cache.storeData(self.payload("\(shared)#\(worker)"), for: shared)
                        if let data = cache.cachedData(for: shared),
                            !(0..<workers).contains(where: { data == self.payload("\(shared)#\($0)") })
                        {
                            failures.append("\(shared) returned \(data.count) bytes that no writer stored for it")
                        }
                        if round % 10 == 9 { try await self.flush(cache) }
                    }
                    return failures
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        if let first = failures.first {
            throw Failure(check: check, message: "\(failures.count) bad read(s), first: \(first)")
        }
    }

    func survivesReopening(_ cache: Cache) async throws {
        let check = "flushedDataSurvivesReopening"
        guard let reopen else { return }
        cache.storeData(payload("a"), for: "a")
        cache.storeData(payload("b"), for: "b")
        cache.removeData(for: "b")
        try await flush(cache)
        let reopened = try await reopen(cache)
        try expectData(reopened, "a", payload("a"), check, "in a reopened cache")
        try expectData(reopened, "b", nil, check, "removed before reopening")
    }

    // MARK: Helpers

    /// A payload unique to `label`: its UTF-8 bytes, a separator and a length that depends on it.
    func payload(_ label: String) -> Data {
        var data = Data("payload:\(label):".utf8)
        data.append(contentsOf: (0..<(label.utf8.count % 97 + 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        return data
    }

    func expectData(_ cache: Cache, _ key: String, _ expected: Data?, _ check: String, _ when: String) throws {
        let data = cache.cachedData(for: key)
        guard data != expected else { return }
        let shownKey = key.count > 40 ? "\(key.prefix(20))…(\(key.count) characters)" : key
        func describe(_ data: Data?) -> String { data.map { "\($0.count) bytes" } ?? "nil" }
        let mismatch =
            data != nil && expected != nil && data?.count == expected?.count ? " with different contents" : ""
        throw Failure(
            check: check,
            message: "\(when): cachedData(for: \"\(shownKey)\") returned \(describe(data))\(mismatch), "
                + "expected \(describe(expected))")
    }
}

/// A small deterministic random number generator for test payloads.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
