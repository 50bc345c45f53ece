import Dispatch

/// A thread-safe, in-memory, least-recently-used cache with per-entry costs and optional expiration.
///
/// The engine behind `ImageCache`. Every operation is O(1) except `removeExpired()`, which is O(n).
/// After each `set`, least-recently-used entries are evicted until both `costLimit` and `countLimit` hold.
/// Values that leave the cache are released after the lock is dropped, so a value's `deinit` may use the cache.
///
/// Expired entries still count towards `totalCost` and `totalCount` until they are read or removed.
final class Cache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable stored property and every node is read or written only while `lock` is held.
    // `clock` is an immutable `@Sendable` closure. Nodes leave the lock only as garbage that nothing else
    // references, so releasing them (and their values) afterwards races with nothing.
    //
    // Hot path: a hit is a dictionary lookup and a move to the head under the lock. The lock already makes every
    // access exclusive, so the mutable state opts out of the runtime's exclusivity checks
    // (`@exclusivity(unchecked)`), and the list links are `Unmanaged` — plain pointers, neither retained nor
    // released as the list is relinked. Invariant: `nodes` owns every linked node, and a node is unlinked (no
    // link points at it) before it leaves `nodes`, so every link points at a live node.

    /// The lock guarding all mutable state below.
    private let lock = Lock.make()
    /// The source of time for expiration, in seconds. Called with the lock held.
    private let clock: @Sendable () -> Double
    /// The sole owner of the nodes. The list links are unretained, so dropping a node here frees it.
    @exclusivity(unchecked) private var nodes: [Key: Node] = [:]
    /// The most recently used node.
    @exclusivity(unchecked) private var head: Unmanaged<Node>?
    /// The least recently used node, the next to be evicted.
    @exclusivity(unchecked) private var tail: Unmanaged<Node>?
    /// The sum of the costs of the nodes in `nodes`.
    @exclusivity(unchecked) private var _totalCost = 0
    /// Storage for `costLimit`.
    private var _costLimit: Int
    /// Storage for `countLimit`.
    private var _countLimit: Int
    /// Storage for `entryCostLimit`.
    private var _entryCostLimit = 0.1
    /// Storage for `ttl`.
    private var _ttl: Double?

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - costLimit: The maximum total cost of the entries.
    ///   - countLimit: The maximum number of entries.
    ///   - clock: The current time in seconds, used for expiration. Defaults to a monotonic clock.
    ///     It is called with the cache locked, so it must be cheap and must not use the cache.
    init(costLimit: Int, countLimit: Int, clock: @escaping @Sendable () -> Double = Cache.monotonicSeconds) {
        self._costLimit = costLimit
        self._countLimit = countLimit
        self.clock = clock
    }

    /// The seconds elapsed on the system's monotonic clock, which never jumps with wall-clock changes.
    static func monotonicSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    /// The maximum total cost of the entries. Setting it evicts least-recently-used entries until it holds.
    var costLimit: Int {
        get { lock.withLock { _costLimit } }
        set {
            _ = lock.withLock {
                _costLimit = newValue
                return evictLocked(toCost: newValue, count: Int.max)
            }
        }
    }

    /// The maximum number of entries. Setting it evicts least-recently-used entries until it holds.
    var countLimit: Int {
        get { lock.withLock { _countLimit } }
        set {
            _ = lock.withLock {
                _countLimit = newValue
                return evictLocked(toCost: Int.max, count: newValue)
            }
        }
    }

    /// The largest cost of a single entry, as a fraction of `costLimit` (clamped to 0...1). Defaults to 0.1.
    ///
    /// `set` stores nothing for a costlier entry (and removes the key's old value). Changing it evicts nothing.
    var entryCostLimit: Double {
        get { lock.withLock { _entryCostLimit } }
        set { lock.withLock { _entryCostLimit = newValue } }
    }

    /// The lifetime in seconds of entries stored without their own `ttl`; `nil` (the default) means forever.
    ///
    /// It applies to later `set` calls only; stored entries keep their expiration.
    var ttl: Double? {
        get { lock.withLock { _ttl } }
        set { lock.withLock { _ttl = newValue } }
    }

    /// The sum of the costs of the stored entries, including expired ones not yet removed.
    var totalCost: Int { lock.withLock { _totalCost } }

    /// The number of stored entries, including expired ones not yet removed.
    var totalCount: Int { lock.withLock { nodes.count } }

    /// Returns the value for `key` and marks it most recently used, or returns `nil` if there is none.
    ///
    /// An expired entry is removed and `nil` is returned.
    func value(forKey key: Key) -> Value? {
        let (value, _): (Value?, Node?) = lock.withLock {
            guard let node = nodes[key] else { return (nil, nil) }
            if let expiration = node.expiration, clock() >= expiration {
                removeLocked(node)
                return (nil, node)  // The expired node is released after unlocking.
            }
            moveToHeadLocked(node)
            return (node.value, nil)
        }
        return value
    }

    /// Stores `value` for `key` as the most recently used entry, replacing any old value, then evicts
    /// least-recently-used entries until `costLimit` and `countLimit` hold.
    ///
    /// If `cost` exceeds `entryCostLimit * costLimit`, nothing is stored and any old value for `key` is removed.
    ///
    /// - Parameters:
    ///   - cost: The entry's cost, such as its size in bytes. Negative costs count as 0.
    ///   - ttl: The entry's lifetime in seconds, overriding the cache's `ttl`. The entry expires once the clock
    ///     reaches the time of this call plus `ttl`. `nil` uses the cache's `ttl`.
    func set(_ value: Value, forKey key: Key, cost: Int, ttl: Double? = nil) {
        _ = lock.withLock {
            var garbage: [Node] = []
            if let old = nodes[key] {
                removeLocked(old)
                garbage.append(old)
            }
            let cost = max(0, cost)
            let maxEntryCost = min(max(_entryCostLimit, 0), 1) * Double(_costLimit)
            guard Double(cost) <= maxEntryCost else { return garbage }
            let expiration = (ttl ?? _ttl).map { clock() + $0 }
            let node = Node(key: key, value: value, cost: cost, expiration: expiration)
            nodes[key] = node
            _totalCost += cost
            insertAtHeadLocked(node)
            garbage += evictLocked(toCost: _costLimit, count: _countLimit)
            return garbage
        }
    }

    /// Removes and returns the value for `key`, or returns `nil` if there is none (expired or not).
    @discardableResult
    func removeValue(forKey key: Key) -> Value? {
        let node: Node? = lock.withLock {
            guard let node = nodes[key] else { return nil }
            removeLocked(node)
            return node
        }
        return node?.value
    }

    /// Removes every entry. The entries are released after unlocking.
    func removeAll() {
        _ = lock.withLock {
            let garbage = nodes
            nodes = [:]
            head = nil
            tail = nil
            _totalCost = 0
            return garbage
        }
    }

    /// Evicts least-recently-used entries until `totalCost` is at most `cost`. The limits are unchanged.
    func trim(toCost cost: Int) {
        _ = lock.withLock { evictLocked(toCost: cost, count: Int.max) }
    }

    /// Evicts least-recently-used entries until `totalCount` is at most `count`. The limits are unchanged.
    func trim(toCount count: Int) {
        _ = lock.withLock { evictLocked(toCost: Int.max, count: count) }
    }

    /// Removes every expired entry, in O(n).
    func removeExpired() {
        _ = lock.withLock {
            let now = clock()
            var garbage: [Node] = []
            var next = tail
            while let link = next {
                let node = link.takeUnretainedValue()
                next = node.previous
                if let expiration = node.expiration, now >= expiration {
                    removeLocked(node)
                    garbage.append(node)
                }
            }
            return garbage
        }
    }

    // MARK: - Locked helpers (call with `lock` held)

    /// Evicts from the tail until `totalCost <= cost` and `totalCount <= count`; returns the evicted nodes.
    private func evictLocked(toCost cost: Int, count: Int) -> [Node] {
        var evicted: [Node] = []
        while _totalCost > cost || nodes.count > count, let link = tail {
            let node = link.takeUnretainedValue()
            removeLocked(node)
            evicted.append(node)
        }
        return evicted
    }

    /// Unlinks `node`, drops it from `nodes` and subtracts its cost. The caller keeps `node` alive.
    private func removeLocked(_ node: Node) {
        unlinkLocked(node)
        nodes[node.key] = nil
        _totalCost -= node.cost
    }

    /// Makes a linked `node` the most recently used.
    private func moveToHeadLocked(_ node: Node) {
        guard head?.toOpaque() != Unmanaged.passUnretained(node).toOpaque() else { return }
        unlinkLocked(node)
        insertAtHeadLocked(node)
    }

    /// Links an unlinked `node` as the most recently used.
    private func insertAtHeadLocked(_ node: Node) {
        let link = Unmanaged.passUnretained(node)
        node.next = head
        head?._withUnsafeGuaranteedRef { $0.previous = link }
        head = link
        if tail == nil { tail = link }
    }

    /// Removes `node` from the list and clears its links.
    private func unlinkLocked(_ node: Node) {
        let previous = node.previous
        let next = node.next
        if let previous { previous._withUnsafeGuaranteedRef { $0.next = next } } else { head = next }
        if let next { next._withUnsafeGuaranteedRef { $0.previous = previous } } else { tail = previous }
        node.previous = nil
        node.next = nil
    }

    /// An entry and its place in the recency list, from `head` (most recent) to `tail` (least recent).
    private final class Node {
        /// The entry's key.
        let key: Key
        /// The entry's value.
        let value: Value
        /// The entry's cost, at least 0.
        let cost: Int
        /// The clock reading at and after which the entry is expired, or `nil` if it never expires.
        let expiration: Double?
        /// The next more recently used node. Not retained: `Cache.nodes` owns every linked node.
        @exclusivity(unchecked) var previous: Unmanaged<Node>?
        /// The next less recently used node. Not retained: `Cache.nodes` owns every linked node.
        @exclusivity(unchecked) var next: Unmanaged<Node>?

        /// Creates an unlinked node.
        init(key: Key, value: Value, cost: Int, expiration: Double?) {
            self.key = key
            self.value = value
            self.cost = cost
            self.expiration = expiration
        }
    }
}
