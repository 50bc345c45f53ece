extension TaskQueueState {
    /// A queued operation. Entries aren't removed when their operation is cancelled or re-queued; they go stale.
    struct Entry {
        let element: Element
        let generation: Int

        /// Whether the entry still stands for a pending operation.
        var isLive: Bool { element.record.state == .pending && element.record.generation == generation }
    }

    /// The first-in, first-out line of one priority, with lazy deletion: stale entries are skipped when popped,
    /// and compacted away once they make up most of the line, so memory stays bounded however often operations
    /// are cancelled or change priority. A line without live entries keeps at most a small buffer for reuse.
    ///
    /// Dropping stale entries releases operations, possibly the last references to them, under the lock: that's
    /// safe because a stale entry's operation has no closures left (they were taken out when it was cancelled) or
    /// is still referenced by its live entry (when it was re-queued).
    struct Bucket {
        /// A line that empties keeps a buffer up to this capacity, so a busy queue doesn't reallocate per entry.
        private static var reusableCapacity: Int { 64 }

        private var entries: [Entry] = []
        private var head = 0
        private var staleCount = 0

        /// The number of stored entries, stale ones included.
        var count: Int { entries.count - head }

        mutating func append(_ entry: Entry) { entries.append(entry) }

        /// Records that one of the entries has gone stale.
        mutating func markStale() {
            staleCount += 1
            if staleCount == count {
                removeAll()
            } else if staleCount >= 64, staleCount * 2 > count {
                entries = entries[head...].filter(\.isLive)
                head = 0
                staleCount = 0
            }
        }

        /// Removes entries from the front up to the first live one, and returns its operation.
        mutating func popLive() -> Element? {
            while head < entries.count {
                let entry = entries[head]
                head += 1
                guard entry.isLive else {
                    staleCount -= 1
                    continue
                }
                if staleCount == count {
                    removeAll()
                } else if head >= 64, head * 2 >= entries.count {
                    entries.removeFirst(head)
                    head = 0
                }
                return entry.element
            }
            removeAll()
            return nil
        }

        /// Calls `body` with the operation of every live entry, in order.
        func forEachLive(_ body: (Element) -> Void) {
            for entry in entries[head...] where entry.isLive { body(entry.element) }
        }

        private mutating func removeAll() {
            entries.removeAll(keepingCapacity: entries.capacity <= Self.reusableCapacity)
            head = 0
            staleCount = 0
        }
    }
}
