public import Foundation
public import NukeCore

/// An in-memory `DataCaching` that counts reads, writes and removals.
///
/// Every method is synchronous: ``storeData(_:for:)`` has stored the data when it returns. Counts are per
/// instance.
public final class MockDataCache: DataCaching {
    private struct State {
        var store: [String: Data] = [:]
        var readCount = 0
        var writeCount = 0
        var removeCount = 0
    }

    private let state = LockedValueBox(State())

    /// Creates an empty cache.
    public init() {}

    /// A snapshot of the stored data by key.
    public var store: [String: Data] {
        state.withLock { $0.store }
    }

    /// The number of ``cachedData(for:)`` calls, hits and misses alike (``containsData(for:)`` is not counted).
    public var readCount: Int {
        state.withLock { $0.readCount }
    }

    /// The number of ``storeData(_:for:)`` calls.
    public var writeCount: Int {
        state.withLock { $0.writeCount }
    }

    /// The number of ``removeData(for:)`` calls, whether or not the key was stored (``removeAll()`` is not
    /// counted).
    public var removeCount: Int {
        state.withLock { $0.removeCount }
    }

    /// Returns the data stored for `key`, or `nil`; counts as a read.
    public func cachedData(for key: String) -> Data? {
        state.withLock { state in
            state.readCount += 1
            return state.store[key]
        }
    }

    /// `true` if data is stored for `key`; not counted.
    public func containsData(for key: String) -> Bool {
        state.withLock { $0.store[key] != nil }
    }

    /// Stores `data` for `key` synchronously, replacing any earlier value; counts as a write.
    public func storeData(_ data: Data, for key: String) {
        state.withLock { state in
            state.writeCount += 1
            state.store[key] = data
        }
    }

    /// Removes the data stored for `key`, if any; counts as a removal.
    public func removeData(for key: String) {
        state.withLock { state in
            state.removeCount += 1
            state.store[key] = nil
        }
    }

    /// Removes all data; counters are kept.
    public func removeAll() {
        state.withLock { $0.store.removeAll() }
    }
}
