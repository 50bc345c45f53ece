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

/// Encoded results in memory, least recently used evicted first once their bytes pass the limit, and the
/// coalescing of requests for a result being made: the first request makes it, the others wait for it.
final class ResultCache: @unchecked Sendable {
    // @unchecked: `results` and `waiters` are read and written only while `lock` is held.
    private let lock = NSLock()
    private var results: ByteBoundedLRU<ServeResult>
    private var waiters: [String: [CheckedContinuation<Result<ServeResult, ServeError>, Never>]] = [:]

    /// How a result was obtained.
    enum Source: Sendable {
        case memory, joined, made
    }

    init(costLimit: Int) {
        results = ByteBoundedLRU(limit: costLimit)
    }

    /// The number of results held and their bytes.
    var usage: (count: Int, bytes: Int) {
        lock.withLock { (results.count, results.size) }
    }

    /// The cached result for `key`, marked as used; `nil` if there is none.
    func cached(_ key: String) -> ServeResult? {
        lock.withLock { results.value(for: key) }
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
            if let value = results.value(for: key) { return .hit(value) }
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
                if case let .success(value) = result { results.set(value, size: value.body.count, for: key) }
                return waiters.removeValue(forKey: key) ?? []
            }
            for continuation in continuations { continuation.resume(returning: result) }
            return (result, .made)
        }
    }

    private static let retryLater = ServeError(.internalError, "the result was evicted before it could be read")
}
