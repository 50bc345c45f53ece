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

/// Encoded results in memory, least recently used evicted first once their bytes pass the limit, and the coalescing
/// of requests for a result being obtained: the first request obtains it, the others wait for it.
final class ResultCache: @unchecked Sendable {
    // @unchecked: `results` and `waiters` are read and written only while `lock` is held.
    private let lock = NSLock()
    private var results: ByteBoundedLRU<ServeResult>
    private var waiters: [String: [CheckedContinuation<(Result<ServeResult, ServeError>, Source)?, Never>]] = [:]

    /// How a result was obtained.
    enum Source: Sendable {
        /// From this cache.
        case memory
        /// From a request that was obtaining it.
        case joined
        /// From the service's shared store (disk, Redis).
        case stored
        /// Made: loaded, decoded, processed and encoded.
        case made
    }

    init(costLimit: Int) {
        results = ByteBoundedLRU(limit: costLimit)
    }

    /// The number of results held and their bytes.
    var usage: (count: Int, bytes: Int) {
        lock.withLock { (results.count, results.size) }
    }

    /// The result for `key`: from memory, by joining a request obtaining it, or from `obtain` (then kept in memory,
    /// unless it failed). Failures are not kept: each waiting request gets the failure, the next one tries again.
    func result(
        for key: String, obtain: @Sendable () async -> (Result<ServeResult, ServeError>, Source)
    ) async -> (Result<ServeResult, ServeError>, Source) {
        enum Step {
            case hit(ServeResult), join, obtain
        }
        let step: Step = lock.withLock {
            if let value = results.value(for: key) { return .hit(value) }
            if waiters[key] != nil { return .join }
            waiters[key] = []
            return .obtain
        }
        switch step {
        case let .hit(value):
            return (.success(value), .memory)
        case .join:
            let joined = await withCheckedContinuation { continuation in
                let waits = lock.withLock {
                    guard waiters[key] != nil else { return false }
                    waiters[key]?.append(continuation)
                    return true
                }
                if !waits { continuation.resume(returning: nil) }
            }
            // The request obtaining it finished between the two locks: start over (a hit now, or obtain it anew).
            guard let (result, _) = joined else { return await self.result(for: key, obtain: obtain) }
            return (result, .joined)
        case .obtain:
            let (result, source) = await obtain()
            let continuations = lock.withLock {
                if case let .success(value) = result { results.set(value, size: value.body.count, for: key) }
                return waiters.removeValue(forKey: key) ?? []
            }
            for continuation in continuations { continuation.resume(returning: (result, source)) }
            return (result, source)
        }
    }
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
