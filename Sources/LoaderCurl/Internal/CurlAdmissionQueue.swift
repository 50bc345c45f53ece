/// Which transfers may reach curl under the per-host and total limits, as a pure value: the transfers waiting for
/// a slot, one first-in-first-out queue per host, and the admitted transfers counted per host.
///
/// Transfers are admitted in submission order among those whose host has a free slot — the order a scan of one
/// list in submission order would give — but without such a scan: every host that has a waiting transfer and a
/// free slot is in a min-heap keyed by the submission sequence of its oldest waiting transfer, so admitting,
/// enqueueing and releasing cost O(log hosts), whatever the number of waiting transfers.
///
/// Withdrawing a waiting transfer (cancellation) drops the transfer at once and leaves its id in the host's queue
/// as a tombstone, skipped when it reaches the front; a queue is compacted when tombstones outnumber its live
/// entries, so withdrawals are O(1) amortised and the queue never grows beyond twice its live transfers (+ 16).
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

    private struct Entry {
        let id: Int
        let sequence: Int
    }

    private struct Waiting {
        let transfer: Transfer
        let slot: Int
    }

    private struct Host {
        var key = ""
        /// Ids of this host's waiting transfers in submission order, withdrawn ones (tombstones) included.
        var queue = FIFOQueue<Entry>()
        /// The number of this host's transfers in ``CurlAdmissionQueue/waiting`` (live entries of `queue`).
        var waitingCount = 0
        var admittedCount = 0
        var isMultiplexing = false
        /// Whether the host is in ``CurlAdmissionQueue/ready`` (at most once).
        var isScheduled = false
    }

    /// A host with a waiting transfer and a free slot, keyed by the sequence of its oldest waiting transfer (a
    /// stale key, after a withdrawal, is lower than the true one and gets corrected when it's popped).
    private struct Candidate: Comparable {
        let sequence: Int
        let slot: Int

        static func < (lhs: Candidate, rhs: Candidate) -> Bool { lhs.sequence < rhs.sequence }
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

    /// Queues `transfer` with `id` (unique among the queue's transfers) behind the waiting transfers to `host`.
    /// Call ``admitNext()`` to see whether it, or another, can run.
    mutating func enqueue(_ transfer: Transfer, id: Int, host: String) {
        let slot = slot(for: host)
        waiting[id] = Waiting(transfer: transfer, slot: slot)
        hosts[slot].queue.append(Entry(id: id, sequence: nextSequence))
        hosts[slot].waitingCount += 1
        nextSequence += 1
        schedule(slot)
    }

    /// Removes waiting transfer `id`; returns `false` (and changes nothing) if it isn't waiting.
    mutating func withdraw(_ id: Int) -> Bool {
        guard let entry = waiting.removeValue(forKey: id) else { return false }
        let slot = entry.slot
        hosts[slot].waitingCount -= 1
        if hosts[slot].waitingCount == 0 {
            hosts[slot].queue = FIFOQueue()
        } else if hosts[slot].queue.count > 2 * hosts[slot].waitingCount + 16 {
            let live = waiting
            hosts[slot].queue.removeAll { live[$0.id] == nil }
        }
        dropIfIdle(slot)
        return true
    }

    /// Admits the oldest waiting transfer within the limits and returns it, or returns `nil` if none can run.
    mutating func admitNext() -> (id: Int, transfer: Transfer)? {
        while maximumTotal == 0 || admitted.count < maximumTotal, let candidate = ready.popMin() {
            let slot = candidate.slot
            hosts[slot].isScheduled = false
            dropWithdrawnEntries(slot)
            guard hasFreeSlot(slot), let entry = hosts[slot].queue.first else {
                dropIfIdle(slot)
                continue
            }
            guard entry.sequence == candidate.sequence else {
                schedule(slot)  // the key was stale: a withdrawn transfer was at the front
                continue
            }
            _ = hosts[slot].queue.popFirst()
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

    private func hasFreeSlot(_ slot: Int) -> Bool {
        hosts[slot].admittedCount < limit(slot)
    }

    /// Puts the host in `ready` if it has a waiting transfer and a free slot and isn't there yet.
    private mutating func schedule(_ slot: Int) {
        guard !hosts[slot].isScheduled, hosts[slot].waitingCount > 0, hasFreeSlot(slot) else { return }
        dropWithdrawnEntries(slot)
        guard let first = hosts[slot].queue.first else { return }
        hosts[slot].isScheduled = true
        ready.insert(Candidate(sequence: first.sequence, slot: slot))
    }

    /// Pops tombstones off the front of the host's queue.
    private mutating func dropWithdrawnEntries(_ slot: Int) {
        while let first = hosts[slot].queue.first, waiting[first.id] == nil {
            _ = hosts[slot].queue.popFirst()
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
