public import Foundation
public import NukeCore
internal import CXXHash

/// A `DataCaching` on Redis (hiredis), for a cache shared by several processes or machines:
///
/// ```swift
/// let redis = try RedisDataCache(url: "redis://cache.internal:6379/0")
/// let disk = try DataCache(name: "thumbnails")
/// let pipeline = ImagePipeline { $0.dataCache = TieredDataCache(local: disk, shared: redis) }
/// ```
///
/// - **Never slows or fails the pipeline.** A read waits at most ``Configuration/readTimeout`` (for a free
///   connection, then for the reply): a timeout is a miss. Writes go to a bounded background queue (full: the
///   write is dropped and counted). A server that is down, restarting, out of memory or answering errors gives
///   misses and dropped writes, and is reconnected with a growing delay. Nothing reaches the caller as an error;
///   ``statistics`` counts hits, misses, timeouts, dropped writes and reconnects.
/// - **Keys** are `prefix:` + the XXH3-128 of the key in hex, so any key string is safe and caches with different
///   prefixes share a server. **Values** carry the hash of their key and a checksum: a damaged value, or one that
///   belongs to another key or another program, is a miss, never wrong data.
/// - **Read your writes.** Writes waiting in the queue are answered from memory, so a `cachedData(for:)` after a
///   `storeData(_:for:)` or `removeData(for:)` sees it, as `DataCaching` requires — unless the write
///   is dropped (the queue was full, or the server failed), after which the key reads as Redis has it.
/// - **Size** is Redis's business: its `maxmemory` and eviction policy decide what stays. On the first connection
///   to each server the cache reads `maxmemory-policy` and warns (``Configuration/logWarning``) when it would
///   refuse writes instead of evicting (`noeviction`, or `volatile-*` without a time to live). Entries get
///   ``Configuration/timeToLive``; values over ``Configuration/maximumValueSize`` are not stored.
/// - **Several servers** (``Configuration/endpoints``) split the keys by consistent hashing: each key lives on one
///   server; a server that goes away costs only its share of the hits (its keys miss, the others' don't move).
///   Consistent hashing rather than one primary with replicas: a cache's data can be lost, so a fleet gains more
///   from adding capacity and isolating failures than from copies; replicas can still sit behind each endpoint.
/// - `removeAll()` deletes the keys with this cache's prefix (`SCAN` + `UNLINK`), never the whole database.
public final class RedisDataCache: DataCaching, Sendable {
    /// The configuration the cache was made with.
    public let configuration: Configuration
    private let nodes: [RedisNode]
    private let ring: HashRing
    private let statisticsBox = LockedValueBox(Statistics())
    private let writer: RedisWriter

    /// A cache for the servers of `configuration`. Connections are made when first needed.
    ///
    /// - Precondition: `configuration.endpoints` names at least one server.
    public init(configuration: Configuration) {
        precondition(!configuration.endpoints.isEmpty, "RedisDataCache needs at least one server")
        self.configuration = configuration
        let statistics = statisticsBox
        nodes = configuration.endpoints.map {
            RedisNode(endpoint: $0, configuration: configuration, statistics: statistics)
        }
        ring = HashRing(servers: configuration.endpoints.map(\.description))
        writer = RedisWriter(limit: configuration.writeQueueLimit, statistics: statistics)
    }

    /// A cache for the server at `url` with the default configuration.
    ///
    /// - Throws: ``RedisEndpoint/InvalidURL``.
    public convenience init(url: String) throws {
        self.init(configuration: try Configuration(url: url))
    }

    /// What the cache did so far.
    public var statistics: Statistics { statisticsBox.snapshot }

    /// The Redis key of `key`: the prefix and the XXH3-128 of the key in hex.
    func redisKey(for key: String) -> String {
        var low: UInt64 = 0
        var high: UInt64 = 0
        Data(key.utf8).withUnsafeBytes { CXXHash_xxh3_128($0.baseAddress, $0.count, &low, &high) }
        let hex = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        return "\(configuration.keyPrefix):\(hex)"
    }

    /// A `SCAN … MATCH` pattern for exactly this cache's keys: the prefix (its glob characters escaped), a colon and
    /// 32 hex digits, so another cache whose prefix starts with this one (`a` and `a:b`) is never matched.
    var keyPattern: String {
        var escaped = ""
        for character in configuration.keyPrefix {
            if "*?[]\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + ":" + String(repeating: "[0-9a-f]", count: 32)
    }

    private func node(for redisKey: String) -> RedisNode {
        nodes[ring.server(for: RedisValue.hash(Data(redisKey.utf8)))]
    }

    // MARK: DataCaching

    public func cachedData(for key: String) -> Data? {
        let redisKey = redisKey(for: key)
        switch writer.pending(for: redisKey) {
        case let .stored(data): return count(hit: data)
        case .removed: return count(hit: nil)
        case .none: break
        }
        // At most the largest value this cache writes: a larger value (foreign, or stored with a higher limit) is
        // read only up to that size, so it can't make a read allocate without bound; its cut copy fails the
        // length check below and is a miss. A missing key reads as an empty string.
        let lastByte = String(RedisValue.headerSize + configuration.maximumValueSize - 1)
        let result = node(for: redisKey).withConnection(timeout: configuration.readTimeout) {
            try $0.command([Data("GETRANGE".utf8), Data(redisKey.utf8), Data("0".utf8), Data(lastByte.utf8)])
        }
        switch result {
        case .success(.string(let value)) where value.isEmpty:
            return count(hit: nil)
        case .success(.string(let value)):
            guard let data = RedisValue.decode(value, key: key) else {
                statisticsBox.withLock { $0.damagedValues += 1 }
                return count(hit: nil)
            }
            return count(hit: data)
        case .success(.error):
            statisticsBox.withLock { $0.errors += 1 }
            return count(hit: nil)
        case .success:
            return count(hit: nil)
        case let .failure(failure):
            record(failure)
            return count(hit: nil)
        }
    }

    public func containsData(for key: String) -> Bool {
        let redisKey = redisKey(for: key)
        switch writer.pending(for: redisKey) {
        case .stored: return true
        case .removed: return false
        case .none: break
        }
        let result = node(for: redisKey).withConnection(timeout: configuration.readTimeout) {
            try $0.command([Data("EXISTS".utf8), Data(redisKey.utf8)])
        }
        if case .success(.integer(let count)) = result { return count > 0 }
        if case let .failure(failure) = result { record(failure) }
        return false
    }

    public func storeData(_ data: Data, for key: String) {
        let redisKey = redisKey(for: key)
        guard data.count <= configuration.maximumValueSize else {
            statisticsBox.withLock { $0.droppedWrites += 1 }
            return enqueueRemoval(redisKey)  // An earlier value must not be served in its place.
        }
        let value = RedisValue.encode(data, key: key)
        let expiry = configuration.timeToLive.flatMap(Self.milliseconds).map {
            [Data("PX".utf8), Data("\($0)".utf8)]
        }
        let arguments = [Data("SET".utf8), Data(redisKey.utf8), value] + (expiry ?? [])
        let node = self.node(for: redisKey)
        let timeout = configuration.writeTimeout
        writer.enqueue(key: redisKey, change: .stored(data), cost: value.count) { [statisticsBox] in
            Self.write(arguments, on: node, timeout: timeout, statistics: statisticsBox)
        }
    }

    /// A time to live in whole milliseconds (at least 1), or `nil` (no expiry) for one that isn't finite.
    static func milliseconds(_ timeToLive: TimeInterval) -> Int? {
        guard timeToLive.isFinite else { return nil }
        return Int(min(max(timeToLive * 1000, 1), 1e15).rounded())
    }

    public func removeData(for key: String) {
        enqueueRemoval(redisKey(for: key))
    }

    public func removeAll() {
        let pattern = keyPattern
        let nodes = self.nodes
        let timeout = configuration.writeTimeout
        writer.enqueueClear { [statisticsBox] in
            for node in nodes {
                Self.deleteKeys(matching: pattern, on: node, timeout: timeout, statistics: statisticsBox)
            }
        }
    }

    /// Waits until every write queued so far was made (or dropped).
    public func flush() {
        writer.flush()
    }

    /// What one server holds for this cache.
    public struct ServerStatus: Sendable, CustomStringConvertible {
        /// The server.
        public let endpoint: RedisEndpoint
        /// The number of keys with this cache's prefix, or `nil` when the server couldn't be reached.
        public let entryCount: Int?
        /// The bytes the server uses (`INFO memory`'s `used_memory`), when known.
        public let usedMemory: Int?
        /// The server's `maxmemory` in bytes (0: no limit), when known.
        public let maximumMemory: Int?
        /// The server's `maxmemory-policy` (`allkeys-lru`, `noeviction`, …), when known.
        public let evictionPolicy: String?

        public var description: String {
            guard let entryCount else { return "\(endpoint): unreachable" }
            let memory = usedMemory.map { "\($0) bytes used" } ?? "memory unknown"
            let limit = maximumMemory.map { $0 == 0 ? "no maxmemory" : "maxmemory \($0)" } ?? "maxmemory unknown"
            return "\(endpoint): \(entryCount) entries, \(memory), \(limit), policy \(evictionPolicy ?? "unknown")"
        }
    }

    /// Asks every server how many entries it holds for this cache (`SCAN` of the prefix) and how full it is.
    /// Blocks for as long as the scan takes; for tools, not for the pipeline's path.
    public func serverStatus() -> [ServerStatus] {
        let pattern = keyPattern
        return nodes.map { node in
            let result = node.withConnection(timeout: configuration.writeTimeout) { connection in
                var count = 0
                var cursor = "0"
                repeat {
                    guard
                        case let .array(parts) = try connection.command(
                            "SCAN", cursor, "MATCH", pattern, "COUNT", "1000"),
                        parts.count == 2, case let .string(next) = parts[0], case let .array(keys) = parts[1]
                    else { throw RedisConnectionError(message: "unexpected SCAN reply") }
                    count += keys.count
                    cursor = String(decoding: next, as: UTF8.self)
                } while cursor != "0"
                var fields: [String: String] = [:]
                if case let .string(info) = try connection.command("INFO", "memory") {
                    for line in String(decoding: info, as: UTF8.self).split(whereSeparator: \.isNewline) {
                        let pair = line.split(separator: ":", maxSplits: 1).map(String.init)
                        if pair.count == 2 { fields[pair[0]] = pair[1] }
                    }
                }
                return ServerStatus(
                    endpoint: node.endpoint, entryCount: count, usedMemory: fields["used_memory"].flatMap { Int($0) },
                    maximumMemory: fields["maxmemory"].flatMap { Int($0) }, evictionPolicy: fields["maxmemory_policy"])
            }
            return (try? result.get())
                ?? ServerStatus(
                    endpoint: node.endpoint, entryCount: nil, usedMemory: nil, maximumMemory: nil, evictionPolicy: nil)
        }
    }

    // MARK: Internals

    private func enqueueRemoval(_ redisKey: String) {
        let node = self.node(for: redisKey)
        let timeout = configuration.writeTimeout
        writer.enqueue(key: redisKey, change: .removed, cost: redisKey.utf8.count) { [statisticsBox] in
            Self.write(
                [Data("UNLINK".utf8), Data(redisKey.utf8)], on: node, timeout: timeout, statistics: statisticsBox)
        }
    }

    private func count(hit data: Data?) -> Data? {
        statisticsBox.withLock {
            if data == nil { $0.misses += 1 } else { $0.hits += 1 }
        }
        return data
    }

    private func record(_ failure: RedisNode.Failure) {
        statisticsBox.withLock {
            switch failure {
            case .timedOut: $0.timeouts += 1
            case .unavailable: $0.unavailable += 1
            case .failed: $0.errors += 1
            }
        }
    }

    private static func write(
        _ arguments: [Data], on node: RedisNode, timeout: TimeInterval, statistics: LockedValueBox<Statistics>
    ) {
        let result = node.withConnection(timeout: timeout) { try $0.command(arguments) }
        statistics.withLock {
            switch result {
            case .success(.error): ($0.errors, $0.droppedWrites) = ($0.errors + 1, $0.droppedWrites + 1)
            case .success: $0.writes += 1
            case .failure: $0.droppedWrites += 1
            }
        }
    }

    private static func deleteKeys(
        matching pattern: String, on node: RedisNode, timeout: TimeInterval, statistics: LockedValueBox<Statistics>
    ) {
        var cursor = "0"
        repeat {
            let result = node.withConnection(timeout: timeout) { connection -> String? in
                guard case let .array(parts) = try connection.command("SCAN", cursor, "MATCH", pattern, "COUNT", "500"),
                    parts.count == 2, case let .string(next) = parts[0], case let .array(keys) = parts[1]
                else { return nil }
                let names = keys.compactMap { if case let .string(name) = $0 { name } else { nil } }
                if !names.isEmpty { _ = try connection.command([Data("UNLINK".utf8)] + names) }
                return String(decoding: next, as: UTF8.self)
            }
            guard case let .success(next?) = result else {
                statistics.withLock { $0.droppedWrites += 1 }
                return
            }
            cursor = next
        } while cursor != "0"
        statistics.withLock { $0.writes += 1 }
    }
}

extension String {
    fileprivate func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
