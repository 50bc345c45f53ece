/// What a cache knows about the entry files in its directory: data size, expiry and last access of each, and the
/// total data size. A pure value; ``DataCache`` keeps it behind its lock and feeds it journal records.
///
/// The index is a hint for eviction and statistics, never for reads: a read always opens and verifies the file.
struct CacheIndex {
    struct Entry: Equatable {
        /// Size of the entry's data in bytes (what ``DataCache/totalSize`` adds up), without the file's header.
        var size: Int64
        /// Last write or read, nanoseconds since 1970.
        var accessTime: Int64
        /// Nanoseconds since 1970; 0 for never.
        var expiry: Int64

        func isExpired(at now: Int64) -> Bool { expiry != 0 && expiry <= now }
    }

    private(set) var entries: [KeyDigest: Entry] = [:]
    private(set) var totalSize: Int64 = 0

    var count: Int { entries.count }

    subscript(digest: KeyDigest) -> Entry? { entries[digest] }

    mutating func apply(_ record: JournalRecord) {
        switch record.kind {
        case .add:
            set(Entry(size: record.size, accessTime: record.time, expiry: record.expiry), for: record.digest)
        case .remove:
            remove(record.digest)
        case .access:
            touch(record.digest, at: record.time)
        case .clear:
            removeAll()
        }
    }

    mutating func set(_ entry: Entry, for digest: KeyDigest) {
        totalSize += entry.size - (entries.updateValue(entry, forKey: digest)?.size ?? 0)
    }

    mutating func remove(_ digest: KeyDigest) {
        if let old = entries.removeValue(forKey: digest) { totalSize -= old.size }
    }

    mutating func removeAll() {
        entries.removeAll()
        totalSize = 0
    }

    /// Moves the entry up in the access order; an older time than the one known is ignored.
    /// Touches every entry of `reads` (each at its time).
    mutating func touch(_ reads: [(digest: KeyDigest, time: Int64)]) {
        for (digest, time) in reads { touch(digest, at: time) }
    }

    mutating func touch(_ digest: KeyDigest, at time: Int64) {
        // One hash lookup: a hit does this under the cache's lock.
        guard let index = entries.index(forKey: digest) else { return }
        if entries.values[index].accessTime < time { entries.values[index].accessTime = time }
    }

    /// The entries to evict so that the total is at most `targetSize`: every expired entry, then the
    /// least recently used ones. Oldest first.
    func victims(targetSize: Int64, now: Int64) -> [(digest: KeyDigest, entry: Entry)] {
        var victims: [(digest: KeyDigest, entry: Entry)] = []
        var remaining = totalSize
        var live: [(digest: KeyDigest, entry: Entry)] = []
        live.reserveCapacity(entries.count)
        for (digest, entry) in entries {
            if entry.isExpired(at: now) {
                victims.append((digest, entry))
                remaining -= entry.size
            } else {
                live.append((digest, entry))
            }
        }
        guard remaining > targetSize else { return victims }
        live.sort { $0.entry.accessTime < $1.entry.accessTime }
        for candidate in live {
            guard remaining > targetSize else { break }
            victims.append(candidate)
            remaining -= candidate.entry.size
        }
        return victims
    }

    /// One ``JournalRecord/Kind/add`` record per entry: a compacted journal.
    var snapshotRecords: [JournalRecord] {
        entries.map { digest, entry in
            JournalRecord(kind: .add, digest: digest, size: entry.size, time: entry.accessTime, expiry: entry.expiry)
        }
    }
}
