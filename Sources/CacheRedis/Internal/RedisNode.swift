import Foundation
import NukeCore

/// One server: a pool of connections made on demand, and its health. After a connection fails the server is down
/// until a reconnection is due (the delay doubles with each failure, up to the configured maximum); meanwhile
/// every use fails at once, so a dead server costs the pipeline nothing but misses.
final class RedisNode: @unchecked Sendable {
    // @unchecked: every mutable field is touched only while `condition` is locked.
    let endpoint: RedisEndpoint
    private let configuration: RedisDataCache.Configuration
    private let statistics: LockedValueBox<RedisDataCache.Statistics>
    private let condition = NSCondition()
    private var idle: [RedisConnection] = []
    private var openCount = 0
    private var retryAt: TimeInterval = 0
    private var delay: TimeInterval
    private var hasFailed = false
    private var hasCheckedPolicy = false

    enum Failure: Error {
        /// No connection became free in time.
        case timedOut
        /// The server is down and not yet due for a reconnection.
        case unavailable
        /// Connecting or the command failed.
        case failed(String)
    }

    init(
        endpoint: RedisEndpoint, configuration: RedisDataCache.Configuration,
        statistics: LockedValueBox<RedisDataCache.Statistics>
    ) {
        self.endpoint = endpoint
        self.configuration = configuration
        self.statistics = statistics
        delay = configuration.reconnectDelay
    }

    /// Runs `body` with a connection, all within `timeout`: the wait for a free connection, making one (connecting,
    /// `AUTH`, `SELECT`, the one-time policy check) and the commands share that time. A pooled connection that
    /// turns out dead (the server restarted since it was last used) is dropped and the command tried once more on a
    /// new one if time is left; only a new connection's failure puts the server into backoff. A reply that doesn't
    /// come in time is `.timedOut`: that connection is dropped, the others and the server's health are kept.
    /// (A host name is resolved by the system without a timeout: use an address or a Unix socket where that matters.)
    func withConnection<R>(timeout: TimeInterval, _ body: (RedisConnection) throws -> R) -> Result<R, Failure> {
        let deadline = Self.now + timeout
        for _ in 0..<2 {
            let connection: RedisConnection
            let isNew: Bool
            switch checkOut(deadline: deadline) {
            case let .success(value): (connection, isNew) = value
            case let .failure(failure): return .failure(failure)
            }
            let remaining = deadline - Self.now
            guard remaining > 0 else {
                checkIn(connection)
                return .failure(.timedOut)
            }
            connection.setTimeout(remaining)
            do {
                let result = try body(connection)
                checkIn(connection)
                return .success(result)
            } catch {
                checkIn(connection, isNew: isNew)
                if connection.didTimeOut { return .failure(.timedOut) }
                if isNew { return .failure(.failed("\(error)")) }
            }
        }
        return .failure(.failed("the server closed the connection"))
    }

    /// Monotonic seconds.
    private static var now: TimeInterval { ProcessInfo.processInfo.systemUptime }

    private func checkOut(deadline: TimeInterval) -> Result<(RedisConnection, isNew: Bool), Failure> {
        condition.lock()
        while true {
            if let connection = idle.popLast() {
                condition.unlock()
                return .success((connection, false))
            }
            if Self.now < retryAt {
                condition.unlock()
                return .failure(.unavailable)
            }
            if openCount < configuration.connectionsPerServer {
                openCount += 1
                condition.unlock()
                return connect(deadline: deadline).map { ($0, true) }
            }
            let remaining = deadline - Self.now
            guard remaining > 0, condition.wait(until: Date(timeIntervalSinceNow: remaining)) else {
                condition.unlock()
                return .failure(.timedOut)
            }
        }
    }

    /// Makes a connection (a slot was reserved) by `deadline`: connects (within `connectTimeout` at most),
    /// authenticates, selects the database, and checks the eviction policy the first time.
    private func connect(deadline: TimeInterval) -> Result<RedisConnection, Failure> {
        func remaining() -> TimeInterval { max(deadline - Self.now, 0.001) }
        do {
            let connection = try RedisConnection(
                endpoint: endpoint, connectTimeout: min(configuration.connectTimeout, remaining()),
                commandTimeout: remaining())
            if let password = endpoint.password {
                let reply =
                    try endpoint.user.map { try connection.command("AUTH", $0, password) }
                    ?? connection.command("AUTH", password)
                if case let .error(message) = reply { throw RedisConnectionError(message: "AUTH: \(message)") }
            }
            if endpoint.database != 0 {
                connection.setTimeout(remaining())
                if case let .error(message) = try connection.command("SELECT", "\(endpoint.database)") {
                    throw RedisConnectionError(message: "SELECT \(endpoint.database): \(message)")
                }
            }
            condition.lock()
            let wasFailed = hasFailed
            hasFailed = false
            delay = configuration.reconnectDelay
            let needsPolicyCheck = !hasCheckedPolicy
            hasCheckedPolicy = true
            condition.unlock()
            if wasFailed { statistics.withLock { $0.reconnects += 1 } }
            if needsPolicyCheck {
                connection.setTimeout(remaining())
                checkEvictionPolicy(connection)
            }
            return .success(connection)
        } catch {
            condition.lock()
            openCount -= 1
            markFailedLocked()
            condition.broadcast()
            condition.unlock()
            return .failure(.failed("\(error)"))
        }
    }

    /// Returns `connection` to the pool; a broken one is dropped, and puts the server into backoff if it was new
    /// (a pooled one may only have outlived a restart).
    private func checkIn(_ connection: RedisConnection, isNew: Bool = true) {
        condition.lock()
        if connection.isBroken {
            openCount -= 1
            if connection.didTimeOut {
                // A slow reply: only this connection is unusable (a late reply would answer the next command).
            } else if isNew {
                markFailedLocked()
            } else {
                // The others pooled with it are likely dead too; the next connection made is a reconnection.
                hasFailed = true
                openCount -= idle.count
                idle.removeAll()
            }
        } else {
            idle.append(connection)
        }
        condition.broadcast()
        condition.unlock()
    }

    private func markFailedLocked() {
        hasFailed = true
        retryAt = ProcessInfo.processInfo.systemUptime + delay
        delay = min(delay * 2, configuration.maximumReconnectDelay)
        // Idle connections to a server that failed are likely dead too.
        openCount -= idle.count
        idle.removeAll()
    }

    /// Warns when the server would refuse writes instead of evicting: `noeviction`, or a `volatile-*` policy while
    /// entries have no time to live. A server that doesn't allow `CONFIG` isn't checked.
    private func checkEvictionPolicy(_ connection: RedisConnection) {
        guard case let .array(items)? = try? connection.command("CONFIG", "GET", "maxmemory-policy"),
            items.count == 2, case let .string(value) = items[1]
        else { return }
        let policy = String(decoding: value, as: UTF8.self)
        var maxmemory = "?"
        if case let .array(memory)? = try? connection.command("CONFIG", "GET", "maxmemory"), memory.count == 2,
            case let .string(bytes) = memory[1]
        {
            maxmemory = String(decoding: bytes, as: UTF8.self)
        }
        if policy == "noeviction" {
            configuration.logWarning(
                "\(endpoint): maxmemory-policy is noeviction (maxmemory \(maxmemory)): once full, Redis refuses "
                    + "writes instead of evicting; set an allkeys-* policy (allkeys-lru) for a cache")
        } else if policy.hasPrefix("volatile-"), configuration.timeToLive == nil {
            configuration.logWarning(
                "\(endpoint): maxmemory-policy is \(policy) but entries have no time to live: Redis can't evict "
                    + "them and refuses writes once full; set timeToLive or an allkeys-* policy")
        }
    }
}
