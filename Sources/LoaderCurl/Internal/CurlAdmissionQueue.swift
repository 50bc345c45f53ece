/// Which transfers may reach curl under the per-host and total limits, as a pure value: the transfers waiting for
/// a slot, one priority queue per host, and the admitted transfers counted per host.
///
/// Transfers are admitted highest priority first, and in submission order among equal priorities, among those
/// whose host has a free slot — the order a scan of one list sorted that way would give — but without such a scan:
/// each host's waiting transfers are a min-heap by (priority, descending; submission sequence), and every host that
/// has a waiting transfer and a free slot is in a min-heap keyed the same way by its first waiting transfer, so
/// admitting, enqueueing, re-prioritising and releasing cost O(log n), whatever the number of waiting transfers.
///
/// A transfer may carry a per-host limit of its own (the pipeline's, passed down): its host admits it only while
/// fewer transfers than the smaller of both limits run there. The host's first waiting transfer decides, so the
/// transfers behind it wait too (a pipeline passes one limit for all its loads).
///
/// Withdrawing a waiting transfer (cancellation) drops the transfer at once and leaves its entry in the host's
/// queue as a tombstone, skipped when it reaches the front; a new priority leaves a tombstone too, and queues the
/// transfer again behind those waiting at its new priority. A queue is compacted when tombstones outnumber its live
/// entries, so the queue never grows beyond twice its live transfers (+ 16).
///
/// The record of a host is dropped once it has nothing waiting and nothing admitted (unless it multiplexes, which
/// is remembered for the loader's lifetime), so a loader that talks to many hosts over time doesn't accumulate them.
///
/// Not synchronised: ``CurlMultiStateMachine`` holds it, behind the engine's lock.
struct CurlAdmissionQueue<Transfer> {
    /// The most admitted transfers per host (0 = no limit), and in total (0 = no limit).
    let maximumPerHost: Int
    let maximumTotal: Int

    /// The per-host limit for hosts known to multiplex (unless ``maximumPerHost`` is 0, meaning no limit).
    static var streamsPerMultiplexingHost: Int { 100 }

    /// A waiting transfer's place: before every entry with a lower priority, or the same priority and a later
    /// sequence.
    private struct Entry: Comparable {
        let id: Int
        let sequence: Int
        let priority: Int
        /// The transfer's own per-host limit (0: none).
        let limit: Int

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.priority != rhs.priority ? lhs.priority > rhs.priority : lhs.sequence < rhs.sequence
        }
    }

    private struct Waiting {
        let transfer: Transfer
        let slot: Int
        /// The sequence of the transfer's live entry (older entries of it are tombstones).
        var sequence: Int
        var priority: Int
        let limit: Int
    }

    private struct Host {
        var key = ""
        /// This host's waiting transfers in admission order, tombstones (withdrawn or re-prioritised) included.
        var queue = MinHeap<Entry>()
        /// The number of this host's transfers in ``CurlAdmissionQueue/waiting`` (live entries of `queue`).
        var waitingCount = 0
        var admittedCount = 0
        var isMultiplexing = false
        /// Whether the host is in ``CurlAdmissionQueue/ready`` (at most once with a live key).
        var isScheduled = false
        /// The entry the host's live key in ``CurlAdmissionQueue/ready`` was made from. A key that is too early
        /// (its entry was withdrawn or moved down) is corrected when it's popped; one that is too late (an entry
        /// that goes before it arrived) is replaced, and the replaced key is skipped when it's popped.
        var scheduledFirst = Entry(id: -1, sequence: -1, priority: 0, limit: 0)
    }

    /// A host with a waiting transfer and a free slot, keyed by its first waiting transfer (a stale key, after a
    /// withdrawal or a new priority, gets corrected when it's popped).
    private struct Candidate: Comparable {
        let first: Entry
        let slot: Int

        static func < (lhs: Candidate, rhs: Candidate) -> Bool { lhs.first < rhs.first }
    }

    private var hosts: [Host] = []
    private var freeSlots: [Int] = []
    private var slotsByKey: [String: Int] = [:]
    private var waiting: [Int: Waiting] = [:]
    /// The host slot of every admitted transfer.
    private var admitted: [Int: Int] = [:]
    private var ready = MinHeap<Candidate>()
    private var nextSequence = 0

    /// Creates an empty queue with these limits (negative values count as 0, no limit).
    init(maximumPerHost: Int = 0, maximumTotal: Int = 0) {
        self.maximumPerHost = max(0, maximumPerHost)
        self.maximumTotal = max(0, maximumTotal)
    }

    /// The number of transfers waiting for a slot.
    var waitingCount: Int { waiting.count }

    /// The number of admitted transfers not yet released.
    var admittedCount: Int { admitted.count }

    /// The number of hosts the queue keeps a record of (for tests: records are dropped when no longer needed).
    var hostCount: Int { slotsByKey.count }

    /// Whether transfer `id` was admitted and not yet released.
    func isAdmitted(_ id: Int) -> Bool { admitted[id] != nil }

    /// Queues `transfer` with `id` (unique among the queue's transfers) behind the waiting transfers to `host` of
    /// the same or a higher `priority` (a higher value goes first), with its own per-host `limit` (0: none). Call
    /// ``admitNext()`` to see whether it, or another, can run.
    mutating func enqueue(_ transfer: Transfer, id: Int, host: String, priority: Int = 0, limit: Int = 0) {
        let slot = slot(for: host)
        let limit = max(0, limit)
        let entry = Entry(id: id, sequence: nextSequence, priority: priority, limit: limit)
        waiting[id] = Waiting(transfer: transfer, slot: slot, sequence: nextSequence, priority: priority, limit: limit)
        hosts[slot].queue.insert(entry)
        hosts[slot].waitingCount += 1
        nextSequence += 1
        scheduleAhead(slot, entry)
    }

    /// Moves waiting transfer `id` behind the transfers waiting at `priority`; returns `false` (and changes nothing)
    /// if it isn't waiting or already has that priority. A higher priority can make it the host's first: call
    /// ``admitNext()`` then only if a slot freed meanwhile (a new priority frees none).
    @discardableResult
    mutating func setPriority(_ priority: Int, of id: Int) -> Bool {
        guard var entry = waiting[id], entry.priority != priority else { return false }
        entry.sequence = nextSequence
        entry.priority = priority
        nextSequence += 1
        waiting[id] = entry
        let slot = entry.slot
        let moved = Entry(id: id, sequence: entry.sequence, priority: priority, limit: entry.limit)
        hosts[slot].queue.insert(moved)
        compactIfNeeded(slot)
        scheduleAhead(slot, moved)
        return true
    }

    /// Removes waiting transfer `id`; returns `false` (and changes nothing) if it isn't waiting.
    mutating func withdraw(_ id: Int) -> Bool {
        guard let entry = waiting.removeValue(forKey: id) else { return false }
        let slot = entry.slot
        hosts[slot].waitingCount -= 1
        if hosts[slot].waitingCount == 0 {
            hosts[slot].queue = MinHeap()
        } else {
            compactIfNeeded(slot)
        }
        dropIfIdle(slot)
        return true
    }

    /// Drops a host queue's tombstones once they outnumber its live entries.
    private mutating func compactIfNeeded(_ slot: Int) {
        guard hosts[slot].queue.count > 2 * hosts[slot].waitingCount + 16 else { return }
        let live = waiting
        hosts[slot].queue.removeAll { live[$0.id]?.sequence != $0.sequence }
    }

    /// Admits the oldest waiting transfer within the limits and returns it, or returns `nil` if none can run.
    mutating func admitNext() -> (id: Int, transfer: Transfer)? {
        while maximumTotal == 0 || admitted.count < maximumTotal, let candidate = ready.popMin() {
            let slot = candidate.slot
            guard hosts[slot].isScheduled, hosts[slot].scheduledFirst.sequence == candidate.first.sequence else {
                continue  // A replaced key: the host is in the heap under its new one.
            }
            hosts[slot].isScheduled = false
            dropWithdrawnEntries(slot)
            guard let entry = hosts[slot].queue.min, hasFreeSlot(slot, for: entry) else {
                dropIfIdle(slot)
                continue
            }
            guard entry.sequence == candidate.first.sequence else {
                schedule(slot)  // the key was stale: a withdrawn transfer was at the front
                continue
            }
            _ = hosts[slot].queue.popMin()
            guard let admittedEntry = waiting.removeValue(forKey: entry.id) else { continue }
            hosts[slot].waitingCount -= 1
            hosts[slot].admittedCount += 1
            admitted[entry.id] = slot
            schedule(slot)
            return (entry.id, admittedEntry.transfer)
        }
        return nil
    }

    /// Frees the slot of admitted transfer `id` (it completed or was cancelled); `multiplexes` when it ran over
    /// a connection that multiplexes (HTTP/2), which raises its host's limit to ``streamsPerMultiplexingHost``.
    /// Returns `false` (and changes nothing) if `id` isn't admitted.
    @discardableResult
    mutating func release(_ id: Int, multiplexes: Bool = false) -> Bool {
        guard let slot = admitted.removeValue(forKey: id) else { return false }
        hosts[slot].admittedCount -= 1
        if multiplexes { hosts[slot].isMultiplexing = true }
        schedule(slot)
        dropIfIdle(slot)
        return true
    }

    // MARK: Hosts

    private func limit(_ slot: Int) -> Int {
        guard maximumPerHost > 0 else { return .max }
        return hosts[slot].isMultiplexing ? Self.streamsPerMultiplexingHost : maximumPerHost
    }

    /// Whether the host can admit `entry`: fewer transfers run there than its limit and the entry's own.
    private func hasFreeSlot(_ slot: Int, for entry: Entry) -> Bool {
        let admitted = hosts[slot].admittedCount
        return admitted < limit(slot) && (entry.limit == 0 || admitted < entry.limit)
    }

    /// Puts the host in `ready` if it has a waiting transfer and a free slot for it and isn't there yet.
    private mutating func schedule(_ slot: Int) {
        guard !hosts[slot].isScheduled, hosts[slot].waitingCount > 0 else { return }
        dropWithdrawnEntries(slot)
        guard let first = hosts[slot].queue.min, hasFreeSlot(slot, for: first) else { return }
        hosts[slot].isScheduled = true
        hosts[slot].scheduledFirst = first
        ready.insert(Candidate(first: first, slot: slot))
    }

    /// Schedules the host after `entry` joined its queue: when the host's key is later than `entry`, a new key
    /// replaces it.
    private mutating func scheduleAhead(_ slot: Int, _ entry: Entry) {
        if hosts[slot].isScheduled, entry < hosts[slot].scheduledFirst { hosts[slot].isScheduled = false }
        schedule(slot)
    }

    /// Pops tombstones (withdrawn transfers, and the old entries of re-prioritised ones) off the front of the host's
    /// queue.
    private mutating func dropWithdrawnEntries(_ slot: Int) {
        while let first = hosts[slot].queue.min, waiting[first.id]?.sequence != first.sequence {
            _ = hosts[slot].queue.popMin()
        }
    }

    private mutating func slot(for key: String) -> Int {
        if let slot = slotsByKey[key] { return slot }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            hosts[slot] = Host(key: key)
        } else {
            slot = hosts.count
            hosts.append(Host(key: key))
        }
        slotsByKey[key] = slot
        return slot
    }

    /// Forgets a host with nothing waiting or admitted, unless it's in `ready` (then popping it calls this again)
    /// or known to multiplex.
    private mutating func dropIfIdle(_ slot: Int) {
        let host = hosts[slot]
        guard host.waitingCount == 0, host.admittedCount == 0, !host.isScheduled, !host.isMultiplexing,
            slotsByKey[host.key] == slot
        else { return }
        slotsByKey[host.key] = nil
        hosts[slot] = Host()
        freeSlots.append(slot)
    }
}
