import Dispatch
import Testing

@testable import NukeCore

@Suite struct CacheTests {
    // MARK: - Basics

    @Test func storesAndReadsValues() {
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 10)
        #expect(cache.value(forKey: "a") == nil)
        cache.set(1, forKey: "a", cost: 10)
        cache.set(2, forKey: "b", cost: 20)
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.value(forKey: "b") == 2)
        #expect(cache.value(forKey: "c") == nil)
        expectTotals(cache, count: 2, cost: 30)
    }

    @Test func replacingAValueUpdatesTheCost() {
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 10)
        cache.set(1, forKey: "a", cost: 10)
        cache.set(2, forKey: "b", cost: 5)
        cache.set(3, forKey: "a", cost: 40)
        #expect(cache.value(forKey: "a") == 3)
        expectTotals(cache, count: 2, cost: 45)
        cache.set(4, forKey: "a", cost: 0)
        #expect(cache.value(forKey: "a") == 4)
        expectTotals(cache, count: 2, cost: 5)
    }

    @Test func negativeCostCountsAsZero() {
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 10)
        cache.set(1, forKey: "a", cost: -50)
        #expect(cache.value(forKey: "a") == 1)
        expectTotals(cache, count: 1, cost: 0)
    }

    @Test func removesValues() {
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 10)
        cache.set(1, forKey: "a", cost: 10)
        cache.set(2, forKey: "b", cost: 20)
        #expect(cache.removeValue(forKey: "a") == 1)
        #expect(cache.value(forKey: "a") == nil)
        expectTotals(cache, count: 1, cost: 20)
        #expect(cache.removeValue(forKey: "a") == nil)
        expectTotals(cache, count: 1, cost: 20)
        #expect(cache.removeValue(forKey: "b") == 2)
        expectTotals(cache, count: 0, cost: 0)
        // The list is still usable after being emptied.
        cache.set(3, forKey: "c", cost: 1)
        #expect(cache.value(forKey: "c") == 3)
        expectTotals(cache, count: 1, cost: 1)
    }

    @Test func removeAllEmptiesTheCache() {
        let cache = Cache<Int, Int>(costLimit: 1000, countLimit: 100)
        for i in 0..<50 { cache.set(i, forKey: i, cost: 2) }
        expectTotals(cache, count: 50, cost: 100)
        cache.removeAll()
        expectTotals(cache, count: 0, cost: 0)
        for i in 0..<50 { #expect(cache.value(forKey: i) == nil) }
        cache.set(7, forKey: 7, cost: 3)
        #expect(cache.value(forKey: 7) == 7)
        expectTotals(cache, count: 1, cost: 3)
    }

    // MARK: - LRU eviction

    @Test func countLimitEvictsLeastRecentlyUsed() {
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 3)
        cache.set(1, forKey: "a", cost: 1)
        cache.set(2, forKey: "b", cost: 1)
        cache.set(3, forKey: "c", cost: 1)
        #expect(cache.value(forKey: "a") == 1)  // Protects "a"; "b" is now least recently used.
        cache.set(4, forKey: "d", cost: 1)
        #expect(cache.value(forKey: "b") == nil)
        expectTotals(cache, count: 3, cost: 3)
        cache.set(5, forKey: "e", cost: 1)  // Evicts "c".
        #expect(cache.value(forKey: "c") == nil)
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.value(forKey: "d") == 4)
        #expect(cache.value(forKey: "e") == 5)
        expectTotals(cache, count: 3, cost: 3)
    }

    @Test func costLimitEvictsLeastRecentlyUsed() {
        let cache = Cache<String, Int>(costLimit: 100, countLimit: 100)
        cache.entryCostLimit = 1
        cache.set(1, forKey: "a", cost: 30)
        cache.set(2, forKey: "b", cost: 30)
        cache.set(3, forKey: "c", cost: 30)
        #expect(cache.value(forKey: "a") == 1)
        cache.set(4, forKey: "d", cost: 30)  // 120 > 100: evicts "b".
        #expect(cache.value(forKey: "b") == nil)
        expectTotals(cache, count: 3, cost: 90)
        cache.set(5, forKey: "e", cost: 70)  // Evicts "c", then "a" (read before "d").
        #expect(cache.value(forKey: "c") == nil)
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "d") == 4)
        #expect(cache.value(forKey: "e") == 5)
        expectTotals(cache, count: 2, cost: 100)
    }

    @Test func replacingAValueMakesItMostRecentlyUsed() {
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 2)
        cache.set(1, forKey: "a", cost: 1)
        cache.set(2, forKey: "b", cost: 1)
        cache.set(3, forKey: "a", cost: 1)
        cache.set(4, forKey: "c", cost: 1)  // Evicts "b".
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.value(forKey: "a") == 3)
        expectTotals(cache, count: 2, cost: 2)
    }

    @Test func oversizedEntryIsRejected() {
        let cache = Cache<String, Int>(costLimit: 100, countLimit: 10)
        #expect(cache.entryCostLimit == 0.1)
        cache.set(1, forKey: "a", cost: 10)  // Exactly the limit: stored.
        cache.set(2, forKey: "b", cost: 11)
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.value(forKey: "b") == nil)
        expectTotals(cache, count: 1, cost: 10)
    }

    @Test func oversizedEntryRemovesTheOldValue() {
        let cache = Cache<String, Int>(costLimit: 100, countLimit: 10)
        cache.set(1, forKey: "a", cost: 5)
        cache.set(2, forKey: "b", cost: 5)
        cache.set(3, forKey: "a", cost: 50)
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "b") == 2)
        expectTotals(cache, count: 1, cost: 5)
    }

    @Test func entryCostLimitIsClampedToTheCostLimit() {
        let cache = Cache<String, Int>(costLimit: 100, countLimit: 10)
        cache.entryCostLimit = 5
        cache.set(1, forKey: "a", cost: 40)
        cache.set(2, forKey: "b", cost: 101)  // Larger than the whole cache: rejected, nothing evicted.
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.value(forKey: "b") == nil)
        expectTotals(cache, count: 1, cost: 40)
        cache.set(3, forKey: "c", cost: 100)  // Fits only alone.
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "c") == 3)
        expectTotals(cache, count: 1, cost: 100)
    }

    // MARK: - Trimming

    @Test func trimToCostEvictsLeastRecentlyUsedFirst() {
        let cache = Cache<Int, Int>(costLimit: 1000, countLimit: 100)
        for i in 0..<5 { cache.set(i, forKey: i, cost: 10) }
        #expect(cache.value(forKey: 0) == 0)  // Order, least recent first: 1, 2, 3, 4, 0.
        cache.trim(toCost: 25)
        #expect(cache.value(forKey: 1) == nil)
        #expect(cache.value(forKey: 2) == nil)
        #expect(cache.value(forKey: 3) == nil)
        expectTotals(cache, count: 2, cost: 20)
        #expect(cache.value(forKey: 4) == 4)
        #expect(cache.value(forKey: 0) == 0)
        #expect(cache.costLimit == 1000)  // Trimming leaves the limit alone.
        cache.trim(toCost: 0)
        expectTotals(cache, count: 0, cost: 0)
    }

    @Test func trimToCountEvictsLeastRecentlyUsedFirst() {
        let cache = Cache<Int, Int>(costLimit: 1000, countLimit: 100)
        for i in 0..<5 { cache.set(i, forKey: i, cost: i) }
        #expect(cache.value(forKey: 1) == 1)  // Order, least recent first: 0, 2, 3, 4, 1.
        cache.trim(toCount: 2)
        #expect(cache.value(forKey: 0) == nil)
        #expect(cache.value(forKey: 2) == nil)
        #expect(cache.value(forKey: 3) == nil)
        expectTotals(cache, count: 2, cost: 5)
        #expect(cache.value(forKey: 4) == 4)
        #expect(cache.value(forKey: 1) == 1)
        #expect(cache.countLimit == 100)
        cache.trim(toCount: 0)
        expectTotals(cache, count: 0, cost: 0)
    }

    @Test func loweringTheCostLimitTrims() {
        let cache = Cache<Int, Int>(costLimit: 1000, countLimit: 100)
        for i in 0..<5 { cache.set(i, forKey: i, cost: 10) }
        #expect(cache.value(forKey: 0) == 0)
        cache.costLimit = 30
        #expect(cache.costLimit == 30)
        #expect(cache.value(forKey: 1) == nil)
        #expect(cache.value(forKey: 2) == nil)
        expectTotals(cache, count: 3, cost: 30)
        #expect(cache.value(forKey: 3) == 3)
    }

    @Test func loweringTheCountLimitTrims() {
        let cache = Cache<Int, Int>(costLimit: 1000, countLimit: 100)
        for i in 0..<5 { cache.set(i, forKey: i, cost: 10) }
        #expect(cache.value(forKey: 0) == 0)
        cache.countLimit = 1
        #expect(cache.countLimit == 1)
        expectTotals(cache, count: 1, cost: 10)
        #expect(cache.value(forKey: 0) == 0)
    }

    // MARK: - Expiration

    @Test func defaultTTLExpiresEntries() {
        let clock = ManualClock()
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 10, clock: clock.read)
        #expect(cache.ttl == nil)
        cache.set(0, forKey: "forever", cost: 1)
        cache.ttl = 10
        cache.set(1, forKey: "a", cost: 1)
        clock.advance(by: 9.5)
        #expect(cache.value(forKey: "a") == 1)
        clock.advance(by: 0.5)  // Exactly `ttl` later: expired.
        expectTotals(cache, count: 2, cost: 2)  // Not yet removed.
        #expect(cache.value(forKey: "a") == nil)
        expectTotals(cache, count: 1, cost: 1)
        clock.advance(by: 1_000_000)
        #expect(cache.value(forKey: "forever") == 0)  // Stored before `ttl` was set.
    }

    @Test func perEntryTTLOverridesTheDefault() {
        let clock = ManualClock()
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 10, clock: clock.read)
        cache.ttl = 100
        cache.set(1, forKey: "short", cost: 1, ttl: 5)
        cache.set(2, forKey: "long", cost: 1, ttl: 500)
        cache.set(3, forKey: "default", cost: 1)
        clock.advance(by: 5)
        #expect(cache.value(forKey: "short") == nil)
        #expect(cache.value(forKey: "default") == 3)
        clock.advance(by: 95)
        #expect(cache.value(forKey: "default") == nil)
        #expect(cache.value(forKey: "long") == 2)
        clock.advance(by: 400)
        #expect(cache.value(forKey: "long") == nil)
        expectTotals(cache, count: 0, cost: 0)
    }

    @Test func replacingAnEntryResetsItsExpiration() {
        let clock = ManualClock()
        let cache = Cache<String, Int>(costLimit: 1000, countLimit: 10, clock: clock.read)
        cache.set(1, forKey: "a", cost: 1, ttl: 10)
        clock.advance(by: 8)
        cache.set(2, forKey: "a", cost: 1, ttl: 10)
        clock.advance(by: 8)
        #expect(cache.value(forKey: "a") == 2)
        cache.set(3, forKey: "a", cost: 1)  // No ttl at all now.
        clock.advance(by: 1000)
        #expect(cache.value(forKey: "a") == 3)
    }

    @Test func removeExpiredRemovesOnlyExpiredEntries() {
        let clock = ManualClock()
        let cache = Cache<Int, Int>(costLimit: 1000, countLimit: 100, clock: clock.read)
        for i in 0..<10 { cache.set(i, forKey: i, cost: i, ttl: i.isMultiple(of: 2) ? 5 : nil) }
        cache.removeExpired()
        expectTotals(cache, count: 10, cost: 45)
        clock.advance(by: 5)
        cache.removeExpired()
        expectTotals(cache, count: 5, cost: 1 + 3 + 5 + 7 + 9)
        for i in 0..<10 { #expect(cache.value(forKey: i) == (i.isMultiple(of: 2) ? nil : i)) }
        // The surviving list is intact: LRU order is still respected.
        cache.trim(toCount: 1)
        #expect(cache.value(forKey: 9) == 9)
        expectTotals(cache, count: 1, cost: 9)
    }

    // MARK: - Memory

    @Test func releasesEveryValue() {
        let tracker = ReleaseTracker()
        do {
            let cache = Cache<Int, Payload>(costLimit: 1000, countLimit: 5)
            for i in 0..<10 { cache.set(tracker.make(), forKey: i, cost: 1) }  // Evicts 5.
            #expect(tracker.alive == 5)
            cache.set(tracker.make(), forKey: 9, cost: 1)  // Replaces one.
            #expect(tracker.alive == 5)
            cache.removeValue(forKey: 9)
            #expect(tracker.alive == 4)
            cache.trim(toCount: 3)
            #expect(tracker.alive == 3)
            cache.removeAll()
            #expect(tracker.alive == 0)
            for i in 0..<5 { cache.set(tracker.make(), forKey: i, cost: 1) }
            #expect(tracker.alive == 5)
        }
        #expect(tracker.alive == 0)  // Deallocating the cache frees its entries.
    }

    /// A value whose `deinit` reads the cache would deadlock if values were released with the lock held.
    @Test func releasesValuesOutsideTheLock() {
        let clock = ManualClock()
        let cache = Cache<Int, Payload>(costLimit: 1000, countLimit: 2, clock: clock.read)
        let reentered = LockedValueBox(0)
        var made = 0
        func make() -> Payload {
            made += 1
            return Payload { [weak cache] in
                if cache?.totalCount != nil { reentered.withLock { $0 += 1 } }
            }
        }
        cache.set(make(), forKey: 0, cost: 1)
        cache.set(make(), forKey: 1, cost: 1)
        cache.set(make(), forKey: 2, cost: 1)  // Eviction.
        cache.set(make(), forKey: 2, cost: 1)  // Replacement.
        cache.set(make(), forKey: 2, cost: 500)  // Rejection of an oversized value, removing the old one.
        cache.set(make(), forKey: 3, cost: 1)
        cache.trim(toCount: 1)  // Trim.
        cache.set(make(), forKey: 4, cost: 1, ttl: 1)
        cache.countLimit = 1  // Limit change.
        clock.advance(by: 1)
        #expect(cache.value(forKey: 4) == nil)  // Expiry on read.
        cache.set(make(), forKey: 5, cost: 1, ttl: 1)
        clock.advance(by: 1)
        cache.removeExpired()
        cache.set(make(), forKey: 6, cost: 1)
        cache.removeAll()
        #expect(made == 9)
        #expect(reentered.snapshot == made)  // Every payload saw a live, unlocked cache.
    }

    // MARK: - Consistency

    /// Random operations checked against a straightforward model after every step.
    @Test func matchesAReferenceModel() {
        var random = SplitMix64(seed: 42)
        let clock = ManualClock()
        let cache = Cache<Int, Int>(costLimit: 200, countLimit: 12, clock: clock.read)
        var model = ModelCache(costLimit: 200, countLimit: 12)
        for _ in 0..<20_000 {
            let key = Int.random(in: 0..<30, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<45:
                let cost = Int.random(in: 0...25, using: &random)
                let ttl: Double? = Bool.random(using: &random) ? nil : Double.random(in: 0...3, using: &random)
                let value = Int.random(in: 0..<1000, using: &random)
                cache.set(value, forKey: key, cost: cost, ttl: ttl)
                model.set(value, forKey: key, cost: cost, expiration: ttl.map { clock.read() + $0 })
            case 45..<80:
                #expect(cache.value(forKey: key) == model.value(forKey: key, now: clock.read()))
            case 80..<88:
                #expect(cache.removeValue(forKey: key) == model.removeValue(forKey: key))
            case 88..<92:
                clock.advance(by: Double.random(in: 0...1, using: &random))
            case 92..<94:
                cache.removeExpired()
                model.removeExpired(now: clock.read())
            case 94..<96:
                let cost = Int.random(in: 0...200, using: &random)
                cache.trim(toCost: cost)
                model.trim(toCost: cost, count: .max)
            case 96..<98:
                let count = Int.random(in: 0...12, using: &random)
                cache.trim(toCount: count)
                model.trim(toCost: .max, count: count)
            case 98:
                let limit = Int.random(in: 50...250, using: &random)
                cache.costLimit = limit
                model.costLimit = limit
                model.trim(toCost: limit, count: .max)
            default:
                cache.removeAll()
                model.entries.removeAll()
            }
            #expect(cache.totalCount == model.entries.count)
            #expect(cache.totalCost == model.entries.reduce(0) { $0 + $1.cost })
        }
    }

    /// Many threads hammering a few keys; the totals must always agree with what is readable.
    @Test func staysConsistentUnderConcurrency() {
        let cache = Cache<Int, Int>(costLimit: 2000, countLimit: 64)  // Entries cost at most 200.
        let violations = LockedValueBox(0)
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            var random = SplitMix64(seed: UInt64(thread))
            for _ in 0..<20_000 {
                let key = Int.random(in: 0..<128, using: &random)
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<50:
                    let cost = Int.random(in: 0...250, using: &random)  // Some exceed the entry limit.
                    cache.set(cost, forKey: key, cost: cost)  // The value is its cost.
                case 50..<90:
                    if let cost = cache.value(forKey: key), cost > 200 { violations.withLock { $0 += 1 } }
                case 90..<99:
                    cache.removeValue(forKey: key)
                default:
                    cache.trim(toCount: 32)
                }
                if cache.totalCost > 2000 || cache.totalCount > 64 { violations.withLock { $0 += 1 } }
            }
        }
        #expect(violations.snapshot == 0)
        let readable = (0..<128).compactMap { cache.value(forKey: $0) }
        #expect(cache.totalCount == readable.count)
        #expect(cache.totalCost == readable.reduce(0, +))
        #expect(cache.totalCost <= 2000)
        #expect(cache.totalCount <= 64)
    }
}

// MARK: - Helpers

/// Checks both totals at once.
private func expectTotals<K, V>(
    _ cache: Cache<K, V>, count: Int, cost: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(cache.totalCount == count, sourceLocation: sourceLocation)
    #expect(cache.totalCost == cost, sourceLocation: sourceLocation)
}

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
    private let now = LockedValueBox(0.0)

    /// The current reading, usable as the cache's clock.
    @Sendable func read() -> Double { now.snapshot }

    /// Moves the clock forward.
    func advance(by seconds: Double) { now.withLock { $0 += seconds } }
}

/// A reference-type value that runs a closure when it is released.
private final class Payload: Sendable {
    private let onDeinit: @Sendable () -> Void

    /// Creates a payload that calls `onDeinit` when released.
    init(onDeinit: @escaping @Sendable () -> Void = {}) { self.onDeinit = onDeinit }

    deinit { onDeinit() }
}

/// Counts the `Payload`s it made that are still alive.
private final class ReleaseTracker: Sendable {
    private let count = LockedValueBox(0)

    /// The number of live payloads.
    var alive: Int { count.snapshot }

    /// Makes a tracked payload.
    func make() -> Payload {
        count.withLock { $0 += 1 }
        return Payload { [count] in count.withLock { $0 -= 1 } }
    }
}

/// A deliberately simple LRU model: an array ordered from least to most recently used.
private struct ModelCache {
    /// One model entry.
    struct Entry {
        var key: Int
        var value: Int
        var cost: Int
        var expiration: Double?
    }

    /// Mirrors `Cache.costLimit`; `entryCostLimit` is the default 0.1.
    var costLimit: Int
    /// Mirrors `Cache.countLimit`.
    let countLimit: Int
    /// The entries, least recently used first.
    var entries: [Entry] = []

    /// Mirrors `Cache.set`, with the expiration already computed.
    mutating func set(_ value: Int, forKey key: Int, cost: Int, expiration: Double?) {
        entries.removeAll { $0.key == key }
        guard Double(cost) <= 0.1 * Double(costLimit) else { return }
        entries.append(Entry(key: key, value: value, cost: cost, expiration: expiration))
        trim(toCost: costLimit, count: countLimit)
    }

    /// Mirrors `Cache.value(forKey:)`.
    mutating func value(forKey key: Int, now: Double) -> Int? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        if let expiration = entry.expiration, now >= expiration { return nil }
        entries.append(entry)
        return entry.value
    }

    /// Mirrors `Cache.removeValue(forKey:)`.
    mutating func removeValue(forKey key: Int) -> Int? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index).value
    }

    /// Mirrors `Cache.removeExpired()`.
    mutating func removeExpired(now: Double) {
        entries.removeAll { entry in entry.expiration.map { now >= $0 } ?? false }
    }

    /// Evicts from the front until both bounds hold.
    mutating func trim(toCost cost: Int, count: Int) {
        while !entries.isEmpty, entries.reduce(0, { $0 + $1.cost }) > cost || entries.count > count {
            entries.removeFirst()
        }
    }
}

/// A small seedable random number generator, so failures reproduce.
private struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator whose sequence depends only on `seed`.
    init(seed: UInt64) { state = seed }

    /// The next pseudo-random number.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
