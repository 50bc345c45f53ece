import Testing

@testable import CacheDisk

/// What a hit records: the pending reads, when their commit is asked for, and their compaction.
@Suite struct DataCacheAccessesTests {
    @Test func theFirstHitSchedulesACommitAndALargeBacklogAsksForOneAtOnce() throws {
        // Given no pending reads
        var accesses = DataCache.Accesses()
        let digest = try #require(KeyDigest(key: "a"))

        // Then the first hit schedules the commit a second later, the next ones don't
        #expect(accesses.recordHit(of: digest, now: 1) == .inOneSecond)
        #expect(accesses.recordHit(of: digest, now: 1) == .alreadyScheduled)

        // When reads pile up to the urgent count, the commit is asked for at once, once
        var requests: [DataCache.Accesses.Commit] = []
        while accesses.pending.count < DataCache.Accesses.urgentCommitCount {
            requests.append(accesses.recordHit(of: digest, now: 1))
        }
        #expect(requests.last == .now)
        #expect(requests.dropLast().allSatisfy { $0 == .alreadyScheduled })
        #expect(accesses.recordHit(of: digest, now: 1) == .alreadyScheduled)

        // And taking the reads hands over all of them, strictly ordered in time, and resets the urgent request
        let taken = accesses.takePending()
        #expect(taken.count == DataCache.Accesses.urgentCommitCount + 1)
        #expect(zip(taken, taken.dropFirst()).allSatisfy { $0.time < $1.time })
        #expect(accesses.pending.isEmpty)
        #expect(accesses.hitCount == taken.count)
        accesses.isCommitScheduled = false
        #expect(accesses.recordHit(of: digest, now: 1) == .inOneSecond)
    }

    @Test func aBacklogTheQueueNeverTakesIsCompactedToTheLatestReadOfEachEntry() throws {
        // Given three entries read over and over, and a commit that never comes
        var accesses = DataCache.Accesses()
        let digests = try ["a", "b", "c"].map { try #require(KeyDigest(key: $0)) }
        for index in 0..<(4 * DataCache.Accesses.urgentCommitCount) {
            _ = accesses.recordHit(of: digests[index % 3], now: 0)
        }

        // Then the backlog stays bounded: one read per entry, the latest, in time order
        #expect(accesses.pending.count < 3 + DataCache.Accesses.urgentCommitCount)
        let latest = DataCache.latestAccesses(accesses.pending)
        #expect(latest.count == 3)
        let last = accesses.pending.last?.time ?? 0
        #expect(latest.values.contains(last))
        #expect(zip(accesses.pending, accesses.pending.dropFirst()).allSatisfy { $0.time < $1.time })
    }
}
