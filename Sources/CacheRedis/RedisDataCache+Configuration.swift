public import Foundation

/// Where a Redis server listens, read from a URL: `redis://[user:password@]host[:port][/db]` or
/// `unix:///path/to/redis.sock[?db=N]`.
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    enum Address: Sendable, Hashable {
        case tcp(host: String, port: Int)
        case unix(path: String)
    }

    let address: Address
    /// The user of `AUTH user password` (Redis 6 ACLs), if the URL has one.
    public let user: String?
    /// The password of `AUTH`, if the URL has one.
    public let password: String?
    /// The database `SELECT`ed on connect (0 by default).
    public let database: Int

    /// Why a URL isn't a Redis endpoint.
    public struct InvalidURL: Error, Sendable, CustomStringConvertible {
        /// The URL as given.
        public let url: String
        /// What is wrong with it.
        public let reason: String

        public var description: String { "not a Redis URL: '\(url)' (\(reason))" }
    }

    /// Reads `url`.
    ///
    /// - Throws: ``InvalidURL`` for another scheme, a missing host or path, a port outside 1–65535 or a database
    ///   that isn't a number from 0.
    public init(url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw InvalidURL(url: url, reason: "can't be parsed")
        }
        user = components.user?.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password?.removingPercentEncoding
        switch scheme {
        case "redis":
            guard let host = components.host, !host.isEmpty else { throw InvalidURL(url: url, reason: "no host") }
            let port = components.port ?? 6379
            guard (1...65_535).contains(port) else { throw InvalidURL(url: url, reason: "port \(port)") }
            address = .tcp(host: host, port: port)
            let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard path.isEmpty || Int(path).map({ $0 >= 0 }) == true else {
                throw InvalidURL(url: url, reason: "database '\(path)' is not a number")
            }
            database = Int(path) ?? 0
        case "unix":
            guard !components.path.isEmpty else { throw InvalidURL(url: url, reason: "no socket path") }
            address = .unix(path: components.path)
            let db = components.queryItems?.first { $0.name == "db" }?.value
            guard db == nil || Int(db!).map({ $0 >= 0 }) == true else {
                throw InvalidURL(url: url, reason: "database '\(db!)' is not a number")
            }
            database = db.flatMap(Int.init) ?? 0
        default:
            throw InvalidURL(url: url, reason: "the scheme must be redis or unix")
        }
    }

    public var description: String {
        switch address {
        case let .tcp(host, port): "redis://\(host):\(port)/\(database)"
        case let .unix(path): "unix://\(path)?db=\(database)"
        }
    }
}

extension RedisDataCache {
    /// How a ``RedisDataCache`` reaches its servers and what it stores.
    public struct Configuration: Sendable {
        /// The servers. With more than one, each key lives on one of them, chosen by consistent hashing: a server
        /// that goes away costs only the hits of its share of the keys, and the others keep theirs. At least one.
        public var endpoints: [RedisEndpoint]
        /// Prefixed to every key (`prefix:` + a hash of the key), so several caches or apps share a server.
        public var keyPrefix = "nuke"
        /// How long Redis keeps an entry (`SET … PX`); `nil` leaves it to Redis's eviction. Default 7 days.
        public var timeToLive: TimeInterval? = 7 * 86_400
        /// Larger values are not stored (and any earlier value of the key is removed), and a read fetches at most
        /// this much (plus the value's 28-byte header): a larger value found on the server, written by another
        /// program or by a cache with a higher limit, is a miss that never costs more memory. Default 8 MB.
        public var maximumValueSize = 8 << 20
        /// Connections per server (each used by one thread at a time). Default 4.
        public var connectionsPerServer = 4
        /// How long a read waits — for a free connection, then for the reply — before it is a miss. Default 50 ms.
        public var readTimeout: TimeInterval = 0.05
        /// How long a connection attempt may take. Default 250 ms.
        public var connectTimeout: TimeInterval = 0.25
        /// How long the background writer waits for a reply. Default 1 s.
        public var writeTimeout: TimeInterval = 1
        /// The most bytes of writes waiting for the background writer; a write that doesn't fit is dropped (and
        /// counted). Default 64 MB.
        public var writeQueueLimit = 64 << 20
        /// The wait before reconnecting to a server that failed, doubled after each failure up to
        /// ``maximumReconnectDelay``. Default 100 ms.
        public var reconnectDelay: TimeInterval = 0.1
        /// The longest wait between reconnection attempts. Default 5 s.
        public var maximumReconnectDelay: TimeInterval = 5
        /// Receives the cache's warnings (a server whose `maxmemory-policy` refuses writes instead of evicting). The
        /// default prints them to standard error.
        public var logWarning: @Sendable (String) -> Void = { message in
            FileHandle.standardError.write(Data("RedisDataCache: warning: \(message)\n".utf8))
        }

        /// A configuration for the servers at `urls` (see ``RedisEndpoint/init(url:)``).
        ///
        /// - Throws: ``RedisEndpoint/InvalidURL`` for a URL that isn't a Redis endpoint, or if there is none.
        public init(urls: [String]) throws {
            guard !urls.isEmpty else { throw RedisEndpoint.InvalidURL(url: "", reason: "no server given") }
            endpoints = try urls.map(RedisEndpoint.init(url:))
        }

        /// A configuration for one server at `url`.
        public init(url: String) throws {
            try self.init(urls: [url])
        }
    }
}
