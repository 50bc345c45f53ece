public import Foundation

/// An encoded result, as the service sends it.
public struct ServeResult: Sendable, Hashable {
    /// The encoded image.
    public var body: Data
    /// Its format.
    public var format: OutputFormat
    /// Its strong entity tag (quoted).
    public var etag: String
    /// Whether the format was chosen from `Accept` (then responses carry `Vary: Accept`).
    public var variesByAccept: Bool

    /// Makes a result.
    public init(body: Data, format: OutputFormat, etag: String, variesByAccept: Bool) {
        self.body = body
        self.format = format
        self.etag = etag
        self.variesByAccept = variesByAccept
    }
}

/// Encoded results in memory, least recently used evicted first once their bytes pass ``costLimit``, and the
/// coalescing of requests for a result being made: the first request makes it, the others wait for it.
final class ResultCache: @unchecked Sendable {
    // @unchecked: every stored property but `costLimit` is read and written only while `lock` is held.
    let costLimit: Int
    private let lock = NSLock()
    private var entries: [String: Node] = [:]
    private var head: Node?  // most recently used
    private var tail: Node?  // least recently used
    private var cost = 0
    private var waiters: [String: [CheckedContinuation<Result<ServeResult, ServeError>, Never>]] = [:]

    private final class Node {
        let key: String
        let value: ServeResult
        var previous: Node?
        var next: Node?

        init(key: String, value: ServeResult) {
            self.key = key
            self.value = value
        }
    }

    /// How a result was obtained.
    enum Source: Sendable {
        case memory, joined, made
    }

    init(costLimit: Int) {
        self.costLimit = costLimit
    }

    /// The number of results held and their bytes.
    var usage: (count: Int, bytes: Int) {
        lock.withLock { (entries.count, cost) }
    }

    /// The cached result for `key`, marked as used; `nil` if there is none.
    func cached(_ key: String) -> ServeResult? {
        lock.withLock {
            guard let node = entries[key] else { return nil }
            moveToFront(node)
            return node.value
        }
    }

    /// The result for `key`: from memory, by joining a request making it, or made by `make` (and stored, unless it
    /// failed). Failures are not cached: each waiting request gets the failure, the next one tries again.
    func result(
        for key: String, make: @Sendable () async -> Result<ServeResult, ServeError>
    ) async -> (Result<ServeResult, ServeError>, Source) {
        enum Step {
            case hit(ServeResult), join, make
        }
        let step: Step = lock.withLock {
            if let node = entries[key] {
                moveToFront(node)
                return .hit(node.value)
            }
            if waiters[key] != nil { return .join }
            waiters[key] = []
            return .make
        }
        switch step {
        case let .hit(value):
            return (.success(value), .memory)
        case .join:
            let result = await withCheckedContinuation { continuation in
                let joined = lock.withLock {
                    guard waiters[key] != nil else { return false }
                    waiters[key]?.append(continuation)
                    return true
                }
                // The maker finished between the two locks: read what it left.
                if !joined {
                    let value = cached(key)
                    continuation.resume(returning: value.map { .success($0) } ?? .failure(Self.retryLater))
                }
            }
            return (result, .joined)
        case .make:
            let result = await make()
            let continuations = lock.withLock {
                if case let .success(value) = result { store(value, for: key) }
                return waiters.removeValue(forKey: key) ?? []
            }
            for continuation in continuations { continuation.resume(returning: result) }
            return (result, .made)
        }
    }

    private static let retryLater = ServeError(.internalError, "the result was evicted before it could be read")

    private func store(_ value: ServeResult, for key: String) {
        let size = value.body.count
        guard size <= costLimit else { return }
        if let old = entries.removeValue(forKey: key) {
            unlink(old)
            cost -= old.value.body.count
        }
        let node = Node(key: key, value: value)
        entries[key] = node
        insertAtFront(node)
        cost += size
        while cost > costLimit, let last = tail {
            unlink(last)
            entries.removeValue(forKey: last.key)
            cost -= last.value.body.count
        }
    }

    private func moveToFront(_ node: Node) {
        guard head !== node else { return }
        unlink(node)
        insertAtFront(node)
    }

    private func insertAtFront(_ node: Node) {
        node.next = head
        node.previous = nil
        head?.previous = node
        head = node
        if tail == nil { tail = node }
    }

    private func unlink(_ node: Node) {
        node.previous?.next = node.next
        node.next?.previous = node.previous
        if head === node { head = node.next }
        if tail === node { tail = node.previous }
        node.previous = nil
        node.next = nil
    }
}
