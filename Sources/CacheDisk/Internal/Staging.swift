import Foundation

/// Changes accepted by `storeData`/`removeData`/`removeAll` that are not on disk yet. A pure value that
/// ``DataCache`` keeps behind its lock; reads consult it before the disk so they see pending changes.
///
/// Each change carries a sequence number, so a flush that wrote one version of a key does not drop a newer
/// version staged while it ran. ``byteCount`` is what the staged changes hold in memory (keys and payloads), which
/// ``DataCache`` keeps under its `stagingLimit`.
struct Staging {
    enum Change {
        /// Store `data`; `expiry` in nanoseconds since 1970, 0 for never.
        case write(Data, expiry: Int64)
        case remove
    }

    struct Item {
        var change: Change
        var sequence: UInt64
    }

    enum Lookup {
        case data(Data, expiry: Int64)
        case removed
        case notStaged
    }

    /// What a flush writes: an optional "remove everything" that comes first, then one change per key.
    struct Batch {
        var removeAllSequence: UInt64?
        var items: [(key: String, item: Item)]

        var isEmpty: Bool { removeAllSequence == nil && items.isEmpty }
    }

    private(set) var items: [String: Item] = [:]
    /// Set while a `removeAll` is staged; changes in `items` were staged after it.
    private(set) var removeAllSequence: UInt64?
    /// Starts at 1: sequence 0 marks a change written without being staged.
    private var nextSequence: UInt64 = 1
    /// The bytes of keys and payloads of the staged changes, including those a flush is writing right now.
    private(set) var byteCount = 0
    /// The largest ``byteCount`` so far (tests check the staging limit with it).
    private(set) var peakByteCount = 0

    /// What staging `change` for `key` holds in memory: the key's UTF-8 bytes plus the payload's.
    static func cost(of change: Change, for key: String) -> Int {
        switch change {
        case .write(let data, _): key.utf8.count + data.count
        case .remove: key.utf8.count
        }
    }

    /// ``byteCount`` after staging `change` for `key`, which replaces the key's staged change, if any.
    func byteCount(staging change: Change, for key: String) -> Int {
        byteCount - (items[key].map { Staging.cost(of: $0.change, for: key) } ?? 0) + Staging.cost(of: change, for: key)
    }

    var isEmpty: Bool { items.isEmpty && removeAllSequence == nil }

    func lookup(_ key: String) -> Lookup {
        // Nothing staged is the common case of a read: no need to hash the key.
        if !items.isEmpty, let item = items[key] {
            switch item.change {
            case .write(let data, let expiry): return .data(data, expiry: expiry)
            case .remove: return .removed
            }
        }
        return removeAllSequence == nil ? .notStaged : .removed
    }

    mutating func stage(_ change: Change, for key: String) {
        byteCount = byteCount(staging: change, for: key)
        peakByteCount = max(peakByteCount, byteCount)
        items[key] = Item(change: change, sequence: nextSequence)
        nextSequence += 1
    }

    mutating func stageRemoveAll() {
        items.removeAll()
        byteCount = 0
        removeAllSequence = nextSequence
        nextSequence += 1
    }

    /// The changes to flush: only `key`'s if given (and no `removeAll` is pending, which must go first), else all.
    func batch(for key: String?) -> Batch {
        if let key, removeAllSequence == nil {
            return Batch(removeAllSequence: nil, items: items[key].map { [(key, $0)] } ?? [])
        }
        return Batch(removeAllSequence: removeAllSequence, items: items.map { ($0.key, $0.value) })
    }

    /// Forgets the changes of `batch` that are still the latest ones (they are on disk now, or were dropped).
    mutating func commit(_ batch: Batch) {
        if let sequence = batch.removeAllSequence, sequence == removeAllSequence { removeAllSequence = nil }
        for (key, item) in batch.items where items[key]?.sequence == item.sequence {
            items[key] = nil
            byteCount -= Staging.cost(of: item.change, for: key)
        }
    }
}
