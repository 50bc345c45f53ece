import Foundation
import NukeCore

/// A disk-less `DataCaching` that keeps at most `byteLimit` bytes, dropping the oldest entries first.
final class InMemoryDataCache: DataCaching, @unchecked Sendable {
    // @unchecked: `entries`, `order` and `totalBytes` are only touched while `lock` is held.
    private let lock = NSLock()
    private var entries: [String: Data] = [:]
    private var order: [String] = []  // Oldest first.
    private var totalBytes = 0
    private let byteLimit: Int

    init(byteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
    }

    func cachedData(for key: String) -> Data? {
        lock.withLock { entries[key] }
    }

    func containsData(for key: String) -> Bool {
        lock.withLock { entries[key] != nil }
    }

    func storeData(_ data: Data, for key: String) {
        lock.withLock {
            removeLocked(key)
            guard data.count <= byteLimit else { return }
            entries[key] = data
            order.append(key)
            totalBytes += data.count
            while totalBytes > byteLimit, let oldest = order.first {
                removeLocked(oldest)
            }
        }
    }

    func removeData(for key: String) {
        lock.withLock { removeLocked(key) }
    }

    func removeAll() {
        lock.withLock {
            entries.removeAll()
            order.removeAll()
            totalBytes = 0
        }
    }

    private func removeLocked(_ key: String) {
        guard let data = entries.removeValue(forKey: key) else { return }
        totalBytes -= data.count
        order.removeAll { $0 == key }
    }
}
