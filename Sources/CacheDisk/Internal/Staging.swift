import Foundation

/// Changes accepted by `storeData`/`removeData`/`removeAll` that are not on disk yet. A pure value that
/// ``DataCache`` keeps behind its lock; reads consult it before the disk so they see pending changes.
///
/// Each change carries a sequence number, so a flush that wrote one version of a key does not drop a newer
/// version staged while it ran.
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
    private var nextSequence: UInt64 = 1

    var isEmpty: Bool { items.isEmpty && removeAllSequence == nil }

    func lookup(_ key: String) -> Lookup {
        if let item = items[key] {
            switch item.change {
            case .write(let data, let expiry): return .data(data, expiry: expiry)
            case .remove: return .removed
            }
        }
        return removeAllSequence == nil ? .notStaged : .removed
    }

    mutating func stage(_ change: Change, for key: String) {
        items[key] = Item(change: change, sequence: nextSequence)
        nextSequence += 1
    }

    mutating func stageRemoveAll() {
        items.removeAll()
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
        }
    }
}
