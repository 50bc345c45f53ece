import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit
import Testing

@testable import CacheRedis

/// `RedisDataCache` against real `redis-server`s started by each test.
@Suite(
    "RedisDataCache", .serialized,
    .enabled(if: RedisServer.unavailableReason == nil, Comment(rawValue: RedisServer.unavailableReason ?? "")))
struct RedisDataCacheTests {
    private static func configuration(_ urls: [String], prefix: String = "test") throws -> RedisDataCache.Configuration
    {
        var configuration = try RedisDataCache.Configuration(urls: urls)
        configuration.keyPrefix = prefix
        configuration.readTimeout = 1  // Generous: a loaded CI machine, not a slow server.
        configuration.connectTimeout = 1
        configuration.logWarning = { _ in }
        return configuration
    }

    /// A direct connection to `server`, to look behind the cache's back.
    private static func connection(_ server: RedisServer) throws -> RedisConnection {
        try RedisConnection(endpoint: RedisEndpoint(url: server.url), connectTimeout: 1, commandTimeout: 5)
    }

    @Test func conformsToDataCaching() async throws {
        let server = try RedisServer()
        let configuration = try Self.configuration([server.url])
        let conformance = DataCachingConformance(
            makeCache: {
                let cache = RedisDataCache(configuration: configuration)
                cache.removeAll()
                cache.flush()
                return cache
            },
            flush: { $0.flush() },
            reopen: { _ in RedisDataCache(configuration: configuration) })
        try await conformance.runAll()
    }

    @Test func connectsOverTCPAndReadsItsWrites() throws {
        let server = try RedisServer(tcp: true)
        let cache = RedisDataCache(configuration: try Self.configuration([try #require(server.tcpURL)]))
        cache.storeData(Data([1, 2, 3]), for: "a")
        #expect(cache.cachedData(for: "a") == Data([1, 2, 3]))  // From the queue or from Redis.
        cache.flush()
        #expect(cache.cachedData(for: "a") == Data([1, 2, 3]))
        #expect(cache.containsData(for: "a"))
        #expect(cache.statistics.writes == 1)
        #expect(cache.statistics.hits >= 1)
    }

    @Test func urlsAreParsedAndBadOnesRefused() throws {
        let full = try RedisEndpoint(url: "redis://user:p%40ss@cache.internal:6380/3")
        #expect(full.user == "user" && full.password == "p@ss" && full.database == 3)
        #expect(full.description == "redis://cache.internal:6380/3")
        #expect(try RedisEndpoint(url: "redis://127.0.0.1").description == "redis://127.0.0.1:6379/0")
        #expect(try RedisEndpoint(url: "unix:///run/redis.sock?db=2").database == 2)
        for bad in ["http://x", "redis://", "redis://h:0", "redis://h/abc", "unix://", "", "redis://h:99999"] {
            #expect(throws: RedisEndpoint.InvalidURL.self, "\(bad)") { try RedisEndpoint(url: bad) }
        }
    }

    @Test func hostileKeysAreSafe() throws {
        let server = try RedisServer()
        let cache = RedisDataCache(configuration: try Self.configuration([server.url]))
        let keys = ["", "*", "test:*", "\u{0}", "a\r\nSET x y\r\n", String(repeating: "k", count: 100_000), "ключ 🔑"]
        for (index, key) in keys.enumerated() { cache.storeData(Data([UInt8(index)]), for: key) }
        cache.flush()
        for (index, key) in keys.enumerated() { #expect(cache.cachedData(for: key) == Data([UInt8(index)])) }
        // Every key is the prefix and a fixed-length hash: nothing else was created on the server.
        guard case let .array(stored) = try Self.connection(server).command("KEYS", "*") else {
            Issue.record("KEYS failed")
            return
        }
        #expect(stored.count == keys.count)
        for case let .string(name) in stored {
            #expect(String(decoding: name, as: UTF8.self).count == "test:".count + 32)
        }
    }

    @Test func aDamagedOrForeignValueIsAMiss() throws {
        let server = try RedisServer()
        let cache = RedisDataCache(configuration: try Self.configuration([server.url]))
        cache.storeData(Data(repeating: 7, count: 1000), for: "a")
        cache.storeData(Data(repeating: 8, count: 1000), for: "b")
        cache.flush()
        let direct = try Self.connection(server)
        let a = cache.redisKey(for: "a")
        let b = cache.redisKey(for: "b")
        guard case var .string(value) = try direct.command("GET", a) else {
            Issue.record("no value stored")
            return
        }
        // A flipped byte of the data, another key's value, a foreign value, a truncated one.
        value[value.count - 1] ^= 1
        _ = try direct.command([Data("SET".utf8), Data(a.utf8), value])
        #expect(cache.cachedData(for: "a") == nil)
        guard case let .string(other) = try direct.command("GET", b) else { return }
        _ = try direct.command([Data("SET".utf8), Data(a.utf8), other])
        #expect(cache.cachedData(for: "a") == nil)
        _ = try direct.command("SET", a, "plain text written by another program")
        #expect(cache.cachedData(for: "a") == nil)
        _ = try direct.command([Data("SET".utf8), Data(a.utf8), other.prefix(30)])
        #expect(cache.cachedData(for: "a") == nil)
        #expect(cache.statistics.damagedValues == 4)
        #expect(cache.cachedData(for: "b") == Data(repeating: 8, count: 1000))
    }

    @Test func aForeignValueOverTheLimitIsReadOnlyUpToTheLimitAndIsAMiss() throws {
        let server = try RedisServer()
        var configuration = try Self.configuration([server.url])
        configuration.maximumValueSize = 1000
        let cache = RedisDataCache(configuration: configuration)
        cache.storeData(Data(repeating: 3, count: 1000), for: "fits")
        cache.flush()
        let direct = try Self.connection(server)
        let key = cache.redisKey(for: "big")
        // A well-formed value of this format, but of 4 MB: as if written by a node with a higher limit.
        let big = RedisValue.encode(Data(repeating: 9, count: 4 << 20), key: "big")
        _ = try direct.command([Data("SET".utf8), Data(key.utf8), big])

        #expect(cache.cachedData(for: "big") == nil)
        #expect(cache.statistics.damagedValues == 1)
        #expect(cache.cachedData(for: "fits") == Data(repeating: 3, count: 1000))  // The largest value it writes.
        #expect(cache.cachedData(for: "absent") == nil)
        #expect(cache.statistics.damagedValues == 1)  // A missing key is a plain miss.
        #expect(cache.statistics.hits == 1)
    }

    @Test func flushReturnsWhileOtherWritesKeepComing() async throws {
        let server = try RedisServer()
        let cache = RedisDataCache(configuration: try Self.configuration([server.url]))
        let state = LockedValueBox((stop: false, flushed: false))
        // A writer that keeps the queue busy for as long as the test runs.
        Thread {
            var index = 0
            while !state.withLock({ $0.stop }) {
                cache.storeData(Data(repeating: UInt8(index % 256), count: 4096), for: "stream-\(index % 64)")
                index += 1
            }
        }.start()
        cache.storeData(Data([9]), for: "before")
        Thread {
            cache.flush()
            state.withLock { $0.flushed = true }
        }.start()

        let flushed = await eventually(timeout: .seconds(20)) { state.withLock { $0.flushed } }
        state.withLock { $0.stop = true }
        #expect(flushed, "flush() waited for writes queued after it")
        #expect(cache.cachedData(for: "before") == Data([9]))
        #expect(await eventually(timeout: .seconds(20)) { state.withLock { $0.flushed } })
    }

    @Test func aValueOverTheLimitIsNotStoredAndReplacesNothing() throws {
        let server = try RedisServer()
        var configuration = try Self.configuration([server.url])
        configuration.maximumValueSize = 1000
        let cache = RedisDataCache(configuration: configuration)
        cache.storeData(Data(repeating: 1, count: 100), for: "k")
        cache.storeData(Data(repeating: 2, count: 1001), for: "k")
        cache.flush()
        #expect(cache.cachedData(for: "k") == nil)  // Not the earlier value either.
        #expect(cache.statistics.droppedWrites == 1)
    }

    @Test func aFullWriteQueueDropsWritesAndCountsThem() throws {
        let server = try RedisServer()
        var configuration = try Self.configuration([server.url])
        configuration.writeQueueLimit = 64 << 10
        configuration.writeTimeout = 10
        let cache = RedisDataCache(configuration: configuration)
        // The server holds writes for 0.8 s, so the writer can't keep the queue short however the threads are
        // scheduled (a writer that kept up with the loop dropped nothing, once, on a loaded machine).
        _ = try Self.connection(server).command("CLIENT", "PAUSE", "800", "WRITE")
        for index in 0..<200 { cache.storeData(Data(repeating: UInt8(index % 256), count: 16 << 10), for: "k\(index)") }
        cache.flush()
        let statistics = cache.statistics
        #expect(statistics.droppedWrites > 0)
        #expect(statistics.writes + statistics.droppedWrites == 200)
    }

    @Test func aServerThatGoesAwayGivesMissesAndHitsResumeAfterItReturns() throws {
        let server = try RedisServer()
        var configuration = try Self.configuration([server.url])
        configuration.reconnectDelay = 0.05
        configuration.maximumReconnectDelay = 0.2
        let cache = RedisDataCache(configuration: configuration)
        cache.storeData(Data([1]), for: "a")
        cache.flush()
        #expect(cache.cachedData(for: "a") == Data([1]))

        server.stop()
        let started = Date()
        for _ in 0..<20 { #expect(cache.cachedData(for: "a") == nil) }
        cache.storeData(Data([2]), for: "b")  // Dropped, not an error.
        cache.flush()
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(cache.statistics.droppedWrites >= 1)

        try server.restart()
        // Writes made within the reconnection delay are dropped; one made after it reaches the server.
        let deadline = Date(timeIntervalSinceNow: 20)
        var value: Data?
        while value == nil, Date() < deadline {
            cache.storeData(Data([3]), for: "c")
            cache.flush()
            value = cache.cachedData(for: "c")
            if value == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(value == Data([3]))
        #expect(cache.statistics.reconnects >= 1)
    }

    @Test func aSlowReplyIsATimeoutThatCostsOnlyItsConnection() throws {
        // Given a cache with a hit, reading with a 0.1 s timeout
        let server = try RedisServer()
        var configuration = try Self.configuration([server.url])
        configuration.readTimeout = 0.1
        let cache = RedisDataCache(configuration: configuration)
        cache.storeData(Data([1]), for: "a")
        cache.flush()
        #expect(cache.cachedData(for: "a") == Data([1]))

        // When the server stops answering for 3 s (CLIENT PAUSE) during a read
        _ = try Self.connection(server).command("CLIENT", "PAUSE", "3000")
        let started = ProcessInfo.processInfo.systemUptime
        let paused = cache.cachedData(for: "a")
        let elapsed = ProcessInfo.processInfo.systemUptime - started

        // Then the read is a miss within its timeout (not the pause), counted as a timeout, not an error or a
        // server gone: once the pause ends, hits resume with no reconnection backoff
        #expect(paused == nil)
        #expect(elapsed < 2, "the read waited \(elapsed) s")
        #expect(cache.statistics.timeouts == 1)
        #expect(cache.statistics.errors == 0)
        let deadline = Date(timeIntervalSinceNow: 20)
        var value: Data?
        while value == nil, Date() < deadline {
            value = cache.cachedData(for: "a")
            if value == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(value == Data([1]))
        #expect(cache.statistics.errors == 0)
        #expect(cache.statistics.unavailable == 0)
    }

    @Test func evictionByRedisGivesMissesNotFailures() throws {
        let server = try RedisServer(arguments: ["--maxmemory", "8mb", "--maxmemory-policy", "allkeys-lru"])
        let cache = RedisDataCache(configuration: try Self.configuration([server.url]))
        for index in 0..<300 { cache.storeData(Data(repeating: UInt8(index % 256), count: 100_000), for: "k\(index)") }
        cache.flush()
        let hits = (0..<300).filter { cache.cachedData(for: "k\($0)") != nil }.count
        #expect(hits > 0 && hits < 300)
        #expect(cache.statistics.errors == 0)
        guard case let .string(info) = try Self.connection(server).command("INFO", "stats") else { return }
        #expect(String(decoding: info, as: UTF8.self).contains("evicted_keys:") == true)
        #expect(!String(decoding: info, as: UTF8.self).contains("evicted_keys:0\r"))
    }

    @Test func aNoEvictionPolicyIsWarnedAbout() throws {
        let server = try RedisServer(arguments: ["--maxmemory", "8mb", "--maxmemory-policy", "noeviction"])
        var configuration = try Self.configuration([server.url])
        let warnings = LockedValueBox<[String]>([])
        configuration.logWarning = { message in warnings.withLock { $0.append(message) } }
        let cache = RedisDataCache(configuration: configuration)
        _ = cache.cachedData(for: "anything")
        #expect(warnings.snapshot.count == 1)
        #expect(warnings.snapshot.first?.contains("noeviction") == true)
    }

    @Test func keysAreSpreadOverServersAndALostServerCostsOnlyItsShare() throws {
        let servers = try (0..<3).map { _ in try RedisServer() }
        var configuration = try Self.configuration(servers.map(\.url))
        configuration.reconnectDelay = 10  // Stays down for the test.
        let cache = RedisDataCache(configuration: configuration)
        for index in 0..<300 { cache.storeData(Data([UInt8(index % 256)]), for: "k\(index)") }
        cache.flush()
        var perServer: [Int] = []
        for server in servers {
            guard case let .integer(count) = try Self.connection(server).command("DBSIZE") else { return }
            perServer.append(Int(count))
        }
        #expect(perServer.reduce(0, +) == 300)
        #expect(perServer.allSatisfy { $0 > 40 }, "\(perServer)")  // Roughly a third each.

        servers[1].stop()
        let hits = (0..<300).filter { cache.cachedData(for: "k\($0)") == Data([UInt8($0 % 256)]) }.count
        #expect(hits == 300 - perServer[1])
    }

    @Test func removeAllDeletesOnlyThisPrefix() throws {
        // Given a cache and others on the same server: another prefix, one that starts with this one, and one
        // that is a glob pattern matching this one
        let server = try RedisServer()
        let mine = RedisDataCache(configuration: try Self.configuration([server.url], prefix: "mine"))
        let others = try ["theirs", "mine:x", "mi*", "m?ne"].map {
            RedisDataCache(configuration: try Self.configuration([server.url], prefix: $0))
        }
        for index in 0..<1200 { mine.storeData(Data([1]), for: "k\(index)") }
        for other in others { other.storeData(Data([2]), for: "k0") }
        mine.flush()
        for other in others { other.flush() }

        // When it's cleared, and so is the glob-named one
        mine.removeAll()
        #expect(mine.cachedData(for: "k0") == nil)  // At once, before the deletion is done.
        mine.flush()
        others[2].removeAll()
        others[2].flush()

        // Then only their own entries are gone
        #expect((0..<1200).allSatisfy { mine.cachedData(for: "k\($0)") == nil })
        #expect(others[0].cachedData(for: "k0") == Data([2]))
        #expect(others[1].cachedData(for: "k0") == Data([2]))
        #expect(others[2].cachedData(for: "k0") == nil)
        #expect(others[3].cachedData(for: "k0") == Data([2]))
        #expect(mine.serverStatus().first?.entryCount == 0)
        #expect(others[3].serverStatus().first?.entryCount == 1)
    }

    @Test func anInfiniteOrOddTimeToLiveIsSafe() throws {
        let server = try RedisServer()
        for ttl in [TimeInterval.infinity, .nan, -5, 0, 1e300] {
            var configuration = try Self.configuration([server.url])
            configuration.timeToLive = ttl
            let cache = RedisDataCache(configuration: configuration)
            cache.storeData(Data([7]), for: "ttl")
            cache.flush()
            #expect(cache.statistics.errors == 0, "ttl \(ttl)")
        }
        #expect(RedisDataCache.milliseconds(.infinity) == nil)
        #expect(RedisDataCache.milliseconds(-5) == 1)
        #expect(RedisDataCache.milliseconds(1.5) == 1_500)
        #expect(RedisDataCache.milliseconds(1e300) == 1_000_000_000_000_000)
    }

    @Test func aTieredCacheOverDiskAndRedisFillsTheLocalTier() throws {
        let server = try RedisServer()
        let configuration = try Self.configuration([server.url])
        let writer = RedisDataCache(configuration: configuration)
        writer.storeData(Data([5, 5]), for: "shared")
        writer.flush()
        // Another node: an empty local tier in front of the same Redis.
        let local = MockDataCache()
        let node = TieredDataCache(local: local, shared: RedisDataCache(configuration: configuration))
        #expect(node.cachedData(for: "shared") == Data([5, 5]))
        #expect(local.store["shared"] == Data([5, 5]))
    }
}

/// A pipeline on a shared Redis when Redis dies in the middle of a run.
@Suite(
    "RedisDataCache under a pipeline", .serialized,
    .enabled(if: RedisServer.unavailableReason == nil, Comment(rawValue: RedisServer.unavailableReason ?? "")))
struct RedisPipelineTests {
    @Test func redisKilledMidRunLeavesEveryRequestSucceedingFromTheNetwork() async throws {
        let body = Data([0x10, 0x20, 0x30, 0xFF]) + Data(repeating: 1, count: 20_000)
        let server = try LoopbackHTTPServer(routes: [
            "/image": .handler { _ in
                Thread.sleep(forTimeInterval: 0.005)
                return .data(body, headers: ["Cache-Control": "max-age=600"])
            }
        ])
        defer { server.shutdown() }
        let redis = try RedisServer()
        var configuration = try RedisDataCache.Configuration(url: redis.url)
        configuration.logWarning = { _ in }
        configuration.reconnectDelay = 0.05
        configuration.maximumReconnectDelay = 0.2
        configuration.readTimeout = 1  // Generous: a loaded CI machine, not a slow server.
        configuration.connectTimeout = 1
        let cache = RedisDataCache(configuration: configuration)
        let pipeline = ImagePipeline {
            $0.dataLoader = CurlDataLoader()
            $0.dataCache = cache
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in MockImageDecoder() }
        }
        let urls = (0..<120).map { server.url("/image?n=\($0)") }

        // When Redis is stopped while the loads are under way
        let tasks = urls.map { pipeline.imageTask(with: $0) }
        try await server.waitUntil("the first loads", timeout: .seconds(20)) { $0.requestCount >= 20 }
        redis.stop()
        var failures = 0
        for task in tasks {
            do { _ = try await task.response } catch { failures += 1 }
        }

        // Then every request succeeded, loaded from the server, and the cache counted what it couldn't do
        #expect(failures == 0)
        #expect(server.requests.count == 120)
        cache.flush()
        #expect(cache.statistics.droppedWrites + cache.statistics.writes == 120)

        // And after a restart, hits resume (once the reconnection delay, at most 0.2 s, has passed)
        try redis.restart()
        let deadline = ContinuousClock.now + .seconds(20)
        var again: ImageResponse?
        while again?.cacheType != .disk, ContinuousClock.now < deadline {
            _ = try await pipeline.image(for: urls[0])
            cache.flush()
            again = try await pipeline.imageTask(with: urls[0]).response
            if again?.cacheType != .disk { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(again?.cacheType == .disk)
        #expect(cache.statistics.reconnects >= 1)
    }
}
