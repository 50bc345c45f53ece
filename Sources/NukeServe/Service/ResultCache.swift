public import Foundation
import NukeCore

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

/// Encoded results in memory, least recently used evicted first once their bytes pass the limit, optionally behind
/// them a `DataCaching` (disk, Redis) that other instances share; and the coalescing of requests for a result being
/// made: the first request reads the store or makes it, the others wait for it.
final class ResultCache: @unchecked Sendable {
    // @unchecked: `results` and `waiters` are read and written only while `lock` is held.
    private let lock = NSLock()
    private var results: ByteBoundedLRU<ServeResult>
    private var waiters: [String: [CheckedContinuation<Result<ServeResult, ServeError>, Never>]] = [:]

    /// How a result was obtained.
    enum Source: Sendable {
        case memory, joined, stored, made
    }

    /// Where results are also kept, under keys of their own (``storeKey(_:)``); `nil` keeps them in memory only.
    let store: (any DataCaching)?

    init(costLimit: Int, store: (any DataCaching)? = nil) {
        results = ByteBoundedLRU(limit: costLimit)
        self.store = store
    }

    /// The key of a result in ``store``: a prefix and the SHA-256 of the service's key, so keys stay short and apart
    /// from the sources' keys in the same cache.
    static func storeKey(_ key: String) -> String {
        "nuke-serve/result/v1/"
            + HMACSHA256.sha256(Array(key.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
            .joined()
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
            var source = Source.made
            let result: Result<ServeResult, ServeError>
            if let data = store?.cachedData(for: Self.storeKey(key)), let stored = ServeResult(envelope: data) {
                result = .success(stored)
                source = .stored
            } else {
                result = await make()
                if case let .success(value) = result { store?.storeData(value.envelope, for: Self.storeKey(key)) }
            }
            let continuations = lock.withLock {
                if case let .success(value) = result { results.set(value, size: value.body.count, for: key) }
                return waiters.removeValue(forKey: key) ?? []
            }
            for continuation in continuations { continuation.resume(returning: result) }
            return (result, source)
        }
    }

    private static let retryLater = ServeError(.internalError, "the result was evicted before it could be read")
}

extension ServeResult {
    private static let magic = Data("NUKESERVE1\n".utf8)

    /// The result as bytes for a `DataCaching`: a magic line, then the format, the `ETag` and whether it varies by
    /// `Accept`, a line each, then the body.
    var envelope: Data {
        var data = Self.magic
        data.append(Data("\(format.rawValue)\n\(etag)\n\(variesByAccept ? 1 : 0)\n".utf8))
        data.append(body)
        return data
    }

    /// The result an ``envelope`` holds; `nil` for bytes that aren't one (another format, damage).
    init?(envelope data: Data) {
        guard data.starts(with: Self.magic) else { return nil }
        var fields: [String] = []
        var index = data.startIndex + Self.magic.count
        while fields.count < 3 {
            guard let end = data[index...].prefix(200).firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            fields.append(String(decoding: data[index..<end], as: UTF8.self))
            index = end + 1
        }
        guard let format = OutputFormat(rawValue: fields[0]), fields[1].hasPrefix("\""), fields[1].hasSuffix("\""),
            fields[2] == "0" || fields[2] == "1", index < data.endIndex
        else { return nil }
        self.init(body: Data(data[index...]), format: format, etag: fields[1], variesByAccept: fields[2] == "1")
    }
}
