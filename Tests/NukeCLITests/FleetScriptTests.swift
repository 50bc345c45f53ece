import Foundation
import NukeTestKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/fleet.sh` with real processes: nginx balancing `nuke serve` instances that share a redis-server, an
/// nginx origin, `ab` as the load, `curl` as the client.
@Suite(
    "scripts/fleet.sh", .serialized,
    .enabled(if: Fleet.unavailableReason == nil, Comment(rawValue: Fleet.unavailableReason ?? "")))
struct FleetScriptTests {
    static let script = NukeProcess.packageRoot().appendingPathComponent("scripts/fleet.sh")

    static let storeHits = "nuke_serve_result_cache_hits_total{tier=\"store\"}"

    @Test func upStatusAndDownAndAResultMadeByOneInstanceServedByAnother() async throws {
        // Given a fleet of two instances, started with a setting of the environment
        let fleet = try await Fleet(instances: 2, environment: ["NUKE_SERVE_TTL": "123"])
        let processes = try await fleet.processes()
        #expect(processes.map(\.role).sorted() == ["balancer", "origin", "redis", "serve", "serve"])
        #expect(fleet.balancer == "http://127.0.0.1:\(try await fleet.port(of: "balancer"))")
        let instances = processes.filter { $0.role == "serve" }.map { "http://127.0.0.1:\($0.port)" }
        let path = try await fleet.path("rs:fill:120:80")

        // When one instance makes a result, and the other and the balancer are asked for it once it is in Redis
        // (the instance writes to Redis in the background, after answering)
        let made = try await CurlClient.get(instances[0] + path)
        try await fleet.waitForRedisEntries(2)  // The source and the result.
        let served = try await CurlClient.get(instances[1] + path)
        let balanced = try await CurlClient.get(fleet.balancer + path)

        // Then the second serves the first's bytes from Redis, with no request to the origin and no decode
        #expect(made.status == 200 && served.status == 200 && served.body == made.body)
        #expect(balanced.headers["cache-control"] == "public, max-age=123")  // NUKE_SERVE_TTL reached them.
        #expect(try fleet.originRequests(for: "/photo.png") == 1)
        #expect(try await Self.metric(Self.storeHits, at: instances[1]) == 1)
        #expect(try await Self.metric("nuke_serve_pipeline_events_total{event=\"decodes\"}", at: instances[1]) == 0)

        // When the fleet goes down while another process runs on the machine (started here, so with SIGTERM
        // blocked: it is stopped with SIGKILL)
        let bystander = Process()
        bystander.executableURL = URL(fileURLWithPath: "/bin/sleep")
        bystander.arguments = ["600"]
        try bystander.run()
        defer {
            kill(bystander.processIdentifier, SIGKILL)
            bystander.waitUntilExit()
        }
        try await fleet.down()

        // Then every process of the fleet is gone, the other one still runs, and `status` says there is no fleet
        #expect(bystander.isRunning)
        #expect(try await fleet.run(["status"]).status != 0)
    }

    @Test func killingAnInstanceUnderLoadFailsNoMoreThanItsRequestsInFlight() async throws {
        // Given a fleet of two instances and a result in their memory
        let fleet = try await Fleet(instances: 2)
        let url = fleet.balancer + (try await fleet.path("w:200"))
        #expect(try await CurlClient.get(url).status == 200)
        let victim = try #require(try await fleet.processes().first { $0.role == "serve" })

        // When one instance is killed (SIGKILL: nothing drains) under load
        let (load, _) = try await fleet.load(url) {
            kill(victim.pid, SIGKILL)
            #expect(await eventually { !Fleet.isRunning(victim.pid) })
        }

        // Then at most the requests in flight fail (8 connections); nginx retries on the other instance those the
        // killed one hadn't answered, which is all of them here: 0 failed in every run (2,000 requests a run, the
        // kill after the first 100)
        #expect(load.exitStatuses.allSatisfy { $0 == 0 }, "\(load)")
        #expect(load.complete == load.requested && load.failed <= Fleet.connections, "\(load)")
        let status = try await fleet.run(["status"])
        #expect(status.status == 1 && status.stderr.contains("serve \(victim.pid)"), "\(status.stderr)")
        try await fleet.down()
    }

    @Test func aRollingRestartUnderLoadFailsNothing() async throws {
        // Given a fleet of two instances and a result in their memory
        let fleet = try await Fleet(instances: 2)
        let url = fleet.balancer + (try await fleet.path("w:160"))
        #expect(try await CurlClient.get(url).status == 200)
        let before = try await fleet.processes().filter { $0.role == "serve" }

        // When both are restarted, one after the other, under load
        let (load, restart) = try await fleet.load(url) { try await fleet.run(["restart"]) }

        // Then no request fails, and new processes listen on the same ports (a failure shows the balancer's
        // answers other than 200, with the instance each came from, and the end of its error log)
        let answers = try fleet.log("balancer/access.log").filter { !$0.contains(" 200 ") }.prefix(20)
        let errors = try fleet.log("balancer/error.log").suffix(20)
        #expect(restart.status == 0, "\(restart.stderr)")
        #expect(load.exitStatuses.allSatisfy { $0 == 0 }, "\(load)")
        #expect(
            load.complete == load.requested && load.failed == 0, "\(load); not 200: \(answers); errors: \(errors)")
        let after = try await fleet.processes().filter { $0.role == "serve" }
        #expect(after.map(\.port).sorted() == before.map(\.port).sorted())
        #expect(Set(after.map(\.pid)).isDisjoint(with: before.map(\.pid)))
        #expect(try await fleet.run(["status"]).status == 0)
        try await fleet.down()
    }

    @Test func withRedisDownEveryRequestSucceedsAndHitsResumeWhenItIsBack() async throws {
        // Given a fleet of two instances and a result in their memory
        let fleet = try await Fleet(instances: 2)
        let processes = try await fleet.processes()
        let redis = try #require(processes.first { $0.role == "redis" })
        let instances = processes.filter { $0.role == "serve" }.map { "http://127.0.0.1:\($0.port)" }
        let cached = fleet.balancer + (try await fleet.path("w:120"))
        #expect(try await CurlClient.get(cached).status == 200)

        // When Redis is killed under load, and 20 new results are asked for meanwhile
        let (load, statuses) = try await fleet.load(cached) {
            kill(redis.pid, SIGKILL)
            #expect(await eventually { !Fleet.isRunning(redis.pid) })
            var statuses: [Int] = []
            for width in 300..<320 {
                statuses.append(try await CurlClient.get(fleet.balancer + (try await fleet.path("w:\(width)"))).status)
            }
            return statuses
        }

        // Then every request succeeds: a Redis that is down costs hits, not requests
        #expect(statuses.count == 20 && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(load.exitStatuses.allSatisfy { $0 == 0 }, "\(load)")
        #expect(load.complete == load.requested && load.failed == 0, "\(load)")

        // When Redis is back on its port (started here: a watched process, stopped at the end of the test)
        let revived = try WatchedProcess(
            executable: try #require(RedisServer.executable),
            arguments: [
                "--bind", "127.0.0.1", "--port", "\(redis.port)", "--save", "", "--appendonly", "no",
                "--dir", fleet.directory.url.path, "--logfile", "revived.log", "--maxmemory", "64mb",
                "--maxmemory-policy", "allkeys-lru",
            ])
        defer { revived.stop() }

        // Then, once the instances have reconnected (each after its back-off, at most 5 s), a result made by one is
        // again served by the other from Redis
        let hitsBefore = try await Self.metric(Self.storeHits, at: instances[1])
        var served = false
        let deadline = ContinuousClock.now + .seconds(60)
        var width = 400
        while !served, ContinuousClock.now < deadline {
            width += 1
            let path = try await fleet.path("w:\(width)")
            _ = try await CurlClient.get(instances[0] + path)
            try await Task.sleep(for: .milliseconds(100))  // The write to Redis follows the answer.
            _ = try await CurlClient.get(instances[1] + path)
            served = try await Self.metric(Self.storeHits, at: instances[1]) > hitsBefore
        }
        #expect(served, "no result went through Redis after it came back")
        try await fleet.down()
    }

    @Test func aStalledOriginIs504WithinTheTimeoutAndTheQueueStaysBounded() async throws {
        // Given an origin that never answers, and one instance with a 3 s timeout, 2 workers and 2 places in its
        // queue, serving a result of the fleet's origin from memory
        let stalled = try LoopbackHTTPServer(routes: ["/stall.png": .stall])
        defer { stalled.shutdown() }
        let fleet = try await Fleet(
            instances: 1,
            environment: ["NUKE_SERVE_TIMEOUT": "3", "NUKE_SERVE_WORKERS": "2", "NUKE_SERVE_QUEUE": "2"])
        let cached = fleet.balancer + (try await fleet.path("w:90"))
        #expect(try await CurlClient.get(cached).status == 200)
        let instance = "http://127.0.0.1:\(try await fleet.port(of: "serve"))"
        let stalledURLs = (1...10).map {
            fleet.balancer + "/unsafe/w:\($0)/plain/" + stalled.url("/stall.png").absoluteString
        }

        // When ten results of the stalled origin are asked for at once
        let start = ContinuousClock.now
        async let answers = withTaskGroup(of: Int.self) { group in
            for url in stalledURLs { group.addTask { (try? await CurlClient.get(url).status) ?? 0 } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // (the queue fills: two take the workers, two wait, the rest are refused)
        var deepest = 0
        var isFull = false
        let fillDeadline = ContinuousClock.now + .seconds(10)
        while !isFull, ContinuousClock.now < fillDeadline {
            let metrics = try await Self.metrics(at: instance)
            deepest = max(deepest, metrics["nuke_serve_work_queue_depth"] ?? -1)
            isFull = metrics["nuke_serve_work_running"] == 2 && metrics["nuke_serve_work_queue_depth"] == 2
        }
        let servedMeanwhile = try await CurlClient.get(cached)
        deepest = max(deepest, try await Self.metric("nuke_serve_work_queue_depth", at: instance))
        let statuses = await answers
        let elapsed = ContinuousClock.now - start

        // Then the queue fills to its 2 and no further, other results keep being served, six requests are refused at
        // once (429), the two that ran end with 504 after the timeout (not retried by the balancer), and the two that
        // waited get a worker then and end with 504 too, or reach the end of their wait first (503)
        #expect(isFull, "the workers and the queue never filled")
        #expect(deepest == 2, "queue depth \(deepest)")
        #expect(servedMeanwhile.status == 200)
        #expect(statuses.filter { $0 == 429 }.count == 6, "\(statuses)")
        #expect(statuses.filter { $0 == 504 }.count >= 2, "\(statuses)")
        #expect(statuses.filter { $0 == 504 || $0 == 503 }.count == 4, "\(statuses)")
        // Two timeouts one after the other take 6 s; without them the requests would hang until curl gives up (60 s).
        #expect(elapsed < .seconds(20), "\(elapsed)")
        try await fleet.down()
    }
}

extension FleetScriptTests {
    /// The samples of the instance at `url` (`/metrics`), by name with labels.
    static func metrics(at url: String) async throws -> [String: Int] {
        let text = String(decoding: try await CurlClient.get(url + "/metrics").body, as: UTF8.self)
        var samples: [String: Int] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let value = Double(fields[1]) { samples[String(fields[0])] = Int(value) }
        }
        return samples
    }

    /// `name`'s value on the instance at `url`, or -1 when `/metrics` doesn't have it.
    static func metric(_ name: String, at url: String) async throws -> Int {
        try await metrics(at: url)[name] ?? -1
    }

    /// Runs `command` (through `env`, so from `PATH`) with `environment` added to the test's and waits for its exit.
    /// Its output goes to files: a server it leaves running can't hold a pipe of ours open.
    static func run(
        _ command: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let out = try directory.write(Data(), to: "out")
        let err = try directory.write(Data(), to: "err")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        return (
            process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        )
    }
}
