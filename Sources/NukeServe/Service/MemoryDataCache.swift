public import Foundation
public import NukeCore

/// A `DataCaching` in memory, least recently used evicted first once its bytes pass ``costLimit``: the tier in
/// front of a disk or Redis cache (`TieredDataCache`) that keeps a service's hot sources, so results made from the
/// same source don't load it again. Thread-safe.
public final class MemoryDataCache: DataCaching, @unchecked Sendable {
    // @unchecked: `entries` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var entries: ByteBoundedLRU<Data>

    /// The most bytes kept; data larger than this is not kept.
    public var costLimit: Int { entries.limit }

    /// A cache of at most `costLimit` bytes.
    public init(costLimit: Int) {
        entries = ByteBoundedLRU(limit: max(0, costLimit))
    }

    /// The bytes kept.
    public var totalCost: Int { lock.withLock { entries.size } }

    public func cachedData(for key: String) -> Data? {
        lock.withLock { entries.value(for: key) }
    }

    public func containsData(for key: String) -> Bool {
        lock.withLock { entries.contains(key) }
    }

    public func storeData(_ data: Data, for key: String) {
        lock.withLock { entries.set(data, size: data.count, for: key) }
    }

    public func removeData(for key: String) {
        lock.withLock { entries.remove(key) }
    }

    public func removeAll() {
        lock.withLock { entries.removeAll() }
    }
}
