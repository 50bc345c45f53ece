import Dispatch
import NukeCore
import Foundation

/// The background writer of a ``RedisDataCache``: writes run one after another on a serial queue, in the order
/// they were made; at most `limit` bytes wait (a write that doesn't fit is dropped and counted). Until a write is
/// made, reads of its key are answered from here, and after a `removeAll` every key reads as missing until the
/// deletion is done, so the cache reads its own writes.
final class RedisWriter: @unchecked Sendable {
    // @unchecked: every mutable field is touched only while `condition` is locked.
    enum Change {
        case stored(Data)
        case removed
    }

    /// What a read of a key should answer instead of asking Redis.
    enum Lookup {
        case stored(Data)
        case removed
        case none
    }

    private struct Operation {
        let key: String?
        let generation: Int
        let cost: Int
        let work: @Sendable () -> Void
    }

    private let limit: Int
    private let statistics: LockedValueBox<RedisDataCache.Statistics>
    private let queue = DispatchQueue(label: "com.github.kean.nuke.redis-writer")
    private let condition = NSCondition()
    private var operations: [Operation] = []
    private var pendingByKey: [String: (change: Change, generation: Int)] = [:]
    private var queuedBytes = 0
    private var clearsInFlight = 0
    /// The generation of the last operation queued, and of the last one made (operations run in that order).
    private var generation = 0
    private var completedGeneration = 0
    private var isDraining = false

    init(limit: Int, statistics: LockedValueBox<RedisDataCache.Statistics>) {
        self.limit = limit
        self.statistics = statistics
    }

    func pending(for key: String) -> Lookup {
        condition.lock()
        defer { condition.unlock() }
        if let pending = pendingByKey[key] {
            switch pending.change {
            case let .stored(data): return .stored(data)
            case .removed: return .removed
            }
        }
        return clearsInFlight > 0 ? .removed : .none
    }

    func enqueue(key: String, change: Change, cost: Int, work: @escaping @Sendable () -> Void) {
        condition.lock()
        guard queuedBytes + cost <= limit || operations.isEmpty && !isDraining else {
            condition.unlock()
            statistics.withLock { $0.droppedWrites += 1 }
            return
        }
        generation += 1
        pendingByKey[key] = (change, generation)
        append(Operation(key: key, generation: generation, cost: cost, work: work))
    }

    func enqueueClear(work: @escaping @Sendable () -> Void) {
        condition.lock()
        pendingByKey.removeAll()
        clearsInFlight += 1
        generation += 1
        append(Operation(key: nil, generation: generation, cost: 0, work: work))
    }

    /// Appends under the lock (held by the caller), releases it, and starts draining if nothing does.
    private func append(_ operation: Operation) {
        queuedBytes += operation.cost
        operations.append(operation)
        let start = !isDraining
        isDraining = true
        condition.unlock()
        if start { queue.async { self.drain() } }
    }

    private func drain() {
        while true {
            condition.lock()
            guard !operations.isEmpty else {
                isDraining = false
                condition.broadcast()
                condition.unlock()
                return
            }
            let operation = operations.removeFirst()
            condition.unlock()
            operation.work()
            condition.lock()
            queuedBytes -= operation.cost
            if let key = operation.key {
                if pendingByKey[key]?.generation == operation.generation { pendingByKey[key] = nil }
            } else {
                clearsInFlight -= 1
            }
            completedGeneration = operation.generation
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits until every write queued before the call was made (writes queued meanwhile don't make it wait
    /// longer, so a steady stream of writes can't starve it).
    func flush() {
        condition.lock()
        let target = generation
        while completedGeneration < target { condition.wait() }
        condition.unlock()
    }
}
