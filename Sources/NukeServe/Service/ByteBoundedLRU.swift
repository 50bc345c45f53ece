/// Values by key, least recently used evicted first once their sizes pass a limit. Not thread-safe: its owner keeps
/// it behind a lock.
struct ByteBoundedLRU<Value> {
    private final class Node {
        let key: String
        let value: Value
        let size: Int
        var previous: Node?
        var next: Node?

        init(key: String, value: Value, size: Int) {
            self.key = key
            self.value = value
            self.size = size
        }
    }

    /// The most bytes kept; a value larger than this is not kept at all.
    let limit: Int
    private var entries: [String: Node] = [:]
    private var head: Node?  // most recently used
    private var tail: Node?  // least recently used
    /// The bytes kept.
    private(set) var size = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// The number of values kept.
    var count: Int { entries.count }

    /// The value for `key`, marked as used.
    mutating func value(for key: String) -> Value? {
        guard let node = entries[key] else { return nil }
        moveToFront(node)
        return node.value
    }

    /// Whether a value is kept for `key` (without marking it used).
    func contains(_ key: String) -> Bool {
        entries[key] != nil
    }

    /// Keeps `value` of `size` bytes for `key`, replacing any value, then evicts down to the limit.
    mutating func set(_ value: Value, size: Int, for key: String) {
        remove(key)
        guard size <= limit else { return }
        let node = Node(key: key, value: value, size: size)
        entries[key] = node
        insertAtFront(node)
        self.size += size
        while self.size > limit, let last = tail { remove(last.key) }
    }

    /// Forgets the value for `key`.
    mutating func remove(_ key: String) {
        guard let node = entries.removeValue(forKey: key) else { return }
        unlink(node)
        size -= node.size
    }

    /// Forgets every value.
    mutating func removeAll() {
        entries = [:]
        // Break the chain so the nodes are freed.
        var node = head
        while let current = node {
            node = current.next
            current.previous = nil
            current.next = nil
        }
        head = nil
        tail = nil
        size = 0
    }

    private mutating func moveToFront(_ node: Node) {
        guard head !== node else { return }
        unlink(node)
        insertAtFront(node)
    }

    private mutating func insertAtFront(_ node: Node) {
        node.next = head
        node.previous = nil
        head?.previous = node
        head = node
        if tail == nil { tail = node }
    }

    private mutating func unlink(_ node: Node) {
        node.previous?.next = node.next
        node.next?.previous = node.previous
        if head === node { head = node.next }
        if tail === node { tail = node.previous }
        node.previous = nil
        node.next = nil
    }
}
