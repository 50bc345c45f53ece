import CBenchRedis
import CacheRedis
import Foundation
import NukeCore
import NukeTestKit

/// Scenario 12, a cache shared by a fleet (`CacheRedis`), against a `redis-server` on a loopback TCP port:
/// - a hit read of a 50 KB entry through `RedisDataCache` against a C loop of hiredis `GET`s of a value of the same
///   size on the same server (what the pool, the key hashing and the checksum cost). Goal ≤ 1.5×;
/// - 8 readers at once against one reader making all their reads: a single reader waits for each round trip,
///   so on this 2-core machine several connections should overlap them. Goal ≥ 3× the throughput (≤ 0.33×
///   the time);
/// - a second `nuke fetch` process of 300 images through Redis against the first process, which downloaded them
///   from a local nginx and filled Redis: over plain loopback, and with nginx sending at 1 MB/s per connection,
///   as a remote origin would. Goal ≤ 0.5×.
struct RedisBenchmark {
    let context: BenchContext
    let section = "redis"
    static let valueSize = 50 * 1024

    func run() async throws {
        let hitName = "50 KB hit read"
        let scalingName = "8 readers × 250 hits of 50 KB at once"
        let fleetNames = ["second nuke process, 300 images, loopback nginx", "second nuke process, 300 images, nginx at 1 MB/s"]
        let names = [hitName, scalingName] + fleetNames
        guard context.selected(section) || names.contains(where: context.selected) else { return }
        if let reason = RedisServer.unavailableReason {
            context.report.add(.skipped(section: section, name: hitName, reference: "hiredis GET", reason: reason))
            return
        }
        let server = try RedisServer(tcp: true)
        defer { server.stop() }
        guard let url = server.tcpURL, let port = server.port else {
            throw BenchmarkError(description: "redis-server has no TCP port")
        }
        if context.selected(section) || context.selected(hitName) {
            try await measureHitRead(url: url, port: port, name: hitName)
        }
        if context.selected(section) || context.selected(scalingName) {
            try await measureScaling(url: url, port: port, name: scalingName)
        }
        for (index, name) in fleetNames.enumerated() where context.selected(section) || context.selected(name) {
            guard BenchNginx.executable != nil else {
                context.report.add(
                    .skipped(
                        section: section, name: name, reference: "the first process",
                        reason: "nginx is missing (scripts/setup.sh --benchmarks installs nginx-light)"))
                continue
            }
            try await measureFleet(redisURL: url, name: name, rateLimit: index == 1 ? "1m" : nil)
        }
    }

    /// A cache with `connections` connections whose reads wait long enough never to time out here.
    private func makeCache(url: String, connections: Int) throws -> RedisDataCache {
        var configuration = try RedisDataCache.Configuration(url: url)
        configuration.connectionsPerServer = connections
        configuration.readTimeout = 5
        configuration.keyPrefix = "bench"
        return RedisDataCache(configuration: configuration)
    }

    private func measureHitRead(url: String, port: Int, name: String) async throws {
        let reads = 2_000
        let value = Data((0..<Self.valueSize).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let cache = try makeCache(url: url, connections: 1)
        cache.storeData(value, for: "hit")
        cache.flush()
        guard let connection = bench_redis_connect("127.0.0.1", Int32(port)) else {
            throw BenchmarkError(description: "hiredis could not connect to 127.0.0.1:\(port)")
        }
        defer { bench_redis_free(connection) }
        let stored = value.withUnsafeBytes { bench_redis_set(connection, "reference", $0.baseAddress, $0.count) }
        guard stored == 0 else { throw BenchmarkError(description: "hiredis SET failed") }

        let times = try await samplePaired(
            runs: context.runs,
            [
                {
                    for _ in 0..<reads where cache.cachedData(for: "hit")?.count != Self.valueSize {
                        throw BenchmarkError(description: "a hit read missed: \(cache.statistics)")
                    }
                },
                {
                    guard bench_redis_get_loop(connection, "reference", Int32(reads)) == reads * Self.valueSize else {
                        throw BenchmarkError(description: "the hiredis GET loop failed")
                    }
                },
            ])
        context.report.add(
            BenchRow(
                section: section, name: name, reference: "hiredis GET in a C loop", unit: "µs/read",
                ours: times[0].map { $0 * 1_000 / Double(reads) }, theirs: times[1].map { $0 * 1_000 / Double(reads) },
                goal: .atMost(1.5),
                note: "RedisDataCache.cachedData: pool, hashed key, checksum of the value; TCP loopback"))
    }

    private func measureScaling(url: String, port: Int, name: String) async throws {
        let readers = 8
        let readsEach = 250
        let value = Data((0..<Self.valueSize).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let cache = try makeCache(url: url, connections: readers)
        for index in 0..<readers { cache.storeData(value, for: "reader-\(index)") }
        cache.flush()
        let read: @Sendable (Int, Int) -> Bool = { reader, count in
            (0..<count).allSatisfy { _ in cache.cachedData(for: "reader-\(reader)")?.count == Self.valueSize }
        }
        let times = try await samplePaired(
            runs: context.runs,
            [
                {
                    let results = await onThreads(readers) { read($0, readsEach) }
                    guard results.allSatisfy({ $0 }) else {
                        throw BenchmarkError(description: "a concurrent read missed: \(cache.statistics)")
                    }
                },
                {
                    let results = await onThreads(1) { _ in read(0, readers * readsEach) }
                    guard results.allSatisfy({ $0 }) else {
                        throw BenchmarkError(description: "a read missed: \(cache.statistics)")
                    }
                },
            ])
        // What bounds the scaling: how many CPUs one reader and eight readers keep busy (this process, with the
        // kernel's loopback work in its system time, plus the server's own CPU time), out of the cores there are.
        // Eight readers near all of them are bound by the CPUs, not by waiting for replies.
        guard let monitor = bench_redis_connect("127.0.0.1", Int32(port)) else {
            throw BenchmarkError(description: "hiredis could not connect to 127.0.0.1:\(port)")
        }
        defer { bench_redis_free(monitor) }
        func busyCPUs(readers count: Int) async throws -> (ours: Double, server: Double) {
            let (cpuBefore, serverBefore) = (processCPUTime(), bench_redis_cpu_seconds(monitor))
            let start = DispatchTime.now().uptimeNanoseconds
            let results = await onThreads(count) { read($0, readers * readsEach / count) }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let (cpu, server) = (processCPUTime() - cpuBefore, bench_redis_cpu_seconds(monitor) - serverBefore)
            guard results.allSatisfy({ $0 }), serverBefore >= 0, wall > 0 else {
                throw BenchmarkError(description: "the CPU measurement failed: \(cache.statistics)")
            }
            return (cpu / wall, server / wall)
        }
        let one = try await busyCPUs(readers: 1)
        let eight = try await busyCPUs(readers: readers)
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let format = { (value: Double) in String(format: "%.2f", value) }
        context.report.add(
            BenchRow(
                section: section, name: name, reference: "one reader making all 2,000 reads", ours: times[0],
                theirs: times[1], goal: .atMost(0.333),
                note: "8 threads, 8 pooled connections; ≤ 0.33× the time is ≥ 3× one reader's throughput. "
                    + "CPUs busy: one reader \(format(one.ours + one.server)) (readers \(format(one.ours)), "
                    + "server \(format(one.server))), 8 readers \(format(eight.ours + eight.server)) of "
                    + "\(Int(cores))"))
    }

    private func measureFleet(redisURL: String, name: String, rateLimit: String?) async throws {
        let count = 300
        let jpeg = try benchJPEG(width: 640, height: 480)
        var files: [String: Data] = [:]
        for index in 0..<count { files["f\(index).jpg"] = jpeg }
        let limit = rateLimit.map { " limit_rate \($0); sendfile_max_chunk 8k; output_buffers 1 8k;" } ?? ""
        let nginx = try BenchNginx(files: files, serverConfig: "expires 1h;" + limit)
        defer { nginx.stop() }
        let urls = files.keys.sorted().map { nginx.url($0).absoluteString }
        let nuke = try NukeCLIBinary.path()
        let arguments = ["fetch"] + urls + ["--redis", redisURL]

        // The `loads` line of `nuke fetch`'s summary: how many downloads the process started.
        func loadsRow(_ loads: Int) -> String { "loads".padding(toLength: 20, withPad: " ", startingAt: 0) + "\(loads) " }
        // The floor of the second process: the same files read from a local directory, with no network and no
        // cache (start-up, reading and decoding only).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-bench-fleet-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, data) in files { try data.write(to: directory.appendingPathComponent(name)) }
        let local = ["fetch"] + files.keys.sorted().map { directory.appendingPathComponent($0).path }
        var first: [Double] = []
        var second: [Double] = []
        var floor: [Double] = []
        let runs = context.isQuick ? 2 : 5
        for _ in 0..<runs {
            _ = try NukeCLIBinary.time(nuke, ["cache", "clear", "--redis", redisURL], expecting: "removed")
            first.append(try NukeCLIBinary.time(nuke, arguments, expecting: loadsRow(count)))
            second.append(try NukeCLIBinary.time(nuke, arguments, expecting: loadsRow(0)))
            floor.append(
                try NukeCLIBinary.time(
                    nuke, local, expecting: "decodes".padding(toLength: 20, withPad: " ", startingAt: 0) + "\(count)"))
        }
        context.report.add(
            BenchRow(
                section: section, name: name, reference: "the first process (downloads, fills Redis)", ours: second,
                theirs: first, goal: .atMost(0.5),
                note: "nuke fetch of 300 × \(jpeg.count / 1024) KB JPEGs, whole processes (start-up included)"
                    + (rateLimit == nil ? "" : "; nginx limit_rate 1m per connection, as a remote origin")
                    + String(format: "; the same files from a local directory: %.0f ms", median(floor))))
    }
}

/// Runs `body(index)` on `count` threads at once and returns their results, without blocking a Swift concurrency
/// thread (the readers block in hiredis).
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
    await withCheckedContinuation { continuation in
        let results = LockedBox([T?](repeating: nil, count: count))
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                let result = body(index)
                results.withLock { $0[index] = result }
                group.leave()
            }.start()
        }
        group.notify(queue: .global()) { continuation.resume(returning: results.withLock { $0.compactMap { $0 } }) }
    }
}

/// A value behind a lock.
private final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The workspace's own `nuke` executable, built in release from the root package.
enum NukeCLIBinary {
    /// Builds `nuke` (`swift build -c release --product nuke` in the root package; quick when up to date) and
    /// returns its path.
    static func path() throws -> String {
        let root = BenchContext.packageDirectory.deletingLastPathComponent().path
        print("building nuke -c release in \(root) (cached after the first run)")
        fflush(nil)
        let common = ["build", "-c", "release", "--package-path", root]
        let (status, output) = try DebugBuildBenchmark.execute("/usr/bin/env", ["swift"] + common + ["--product", "nuke"])
        guard status == 0 else { throw BenchmarkError(description: "building nuke failed: \(output.suffix(2000))") }
        let (_, binPath) = try DebugBuildBenchmark.execute("/usr/bin/env", ["swift"] + common + ["--show-bin-path"])
        return binPath.trimmingCharacters(in: .whitespacesAndNewlines) + "/nuke"
    }

    /// Runs `nuke arguments` and returns its wall time in ms; throws unless it succeeds and prints `expected`.
    static func time(_ path: String, _ arguments: [String], expecting expected: String) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let (status, output) = try DebugBuildBenchmark.execute(path, arguments)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        guard status == 0, output.contains(expected) else {
            throw BenchmarkError(
                description: "nuke \(arguments.first ?? "") failed (\(status)) or lacks '\(expected)': "
                    + "\(output.suffix(800))")
        }
        return elapsed
    }
}
