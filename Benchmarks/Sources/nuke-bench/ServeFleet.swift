import Foundation

/// The fleet row of scenario 13: a cached result through `scripts/fleet.sh up --instances 2` (a load balancer in
/// front of two `nuke serve` instances sharing Redis) against `--instances 1`, on this machine: what the balancer and
/// Redis add, and what a second instance on the same cores gives back; and the fleet of 1 against the section's
/// `nuke serve` answered directly: what the balancer's hop costs. Informational.
struct ServeFleet {
    static let name = "fleet of 2 vs 1 instance, cached result, c8"
    static let balancerName = "fleet of 1 (balancer, Redis) vs nuke serve alone, cached result, c8"
    static let script = BenchContext.packageDirectory.deletingLastPathComponent().appendingPathComponent(
        "scripts/fleet.sh")

    let context: BenchContext
    let seconds: Int
    let rounds: Int

    /// A fleet started by the script, stopped by ``down()``.
    struct Fleet {
        var directory: URL
        var base: String
        var environment: [String: String]

        func down() {
            _ = try? ServeFleet.execute(["down"], environment: environment)
        }
    }

    /// Starts a fleet of 2 and one of 1 side by side (each `up` in a directory of its own) and measures them and
    /// `direct`, a `nuke serve` without a balancer, alternately on one cached result.
    func run(nukePath: String, origin: String, direct: String, directory: URL) async throws {
        guard FileManager.default.fileExists(atPath: Self.script.path) else {
            context.report.add(
                .skipped(
                    section: "serve", name: Self.name, reference: "one instance",
                    reason: "scripts/fleet.sh is not in this tree"))
            return
        }
        let fleets = try [2, 1].map { instances in
            try up(
                instances: instances, nukePath: nukePath, directory: directory.appendingPathComponent("\(instances)"))
        }
        defer { for fleet in fleets { fleet.down() } }
        let path = "/insecure/rs:fit:300:0/plain/" + ServeBenchmark.percentEncoded(origin)
        let targets = [
            ServeBenchmark.Target(name: "fleet of 2", base: fleets[0].base, path: path),
            ServeBenchmark.Target(name: "fleet of 1", base: fleets[1].base, path: path),
            ServeBenchmark.Target(name: "nuke serve alone", base: direct, path: path),
        ]
        // Made once through each, so that every instance behind a balancer has the result (in Redis or memory).
        for target in targets {
            for _ in 0..<4 { try ServeBenchmark.check(target, mime: "image/jpeg") }
        }
        let benchmark = ServeBenchmark(context: context)
        let results = try await benchmark.measure(targets)
        benchmark.addRows(
            name: Self.name, ours: results[0], theirs: results[1], reference: "scripts/fleet.sh --instances 1",
            throughputGoal: .info, latencyGoal: .info)
        benchmark.addRows(
            name: Self.balancerName, ours: results[1], theirs: results[2], reference: "nuke serve alone",
            throughputGoal: .info, latencyGoal: .info)
    }

    private func up(instances: Int, nukePath: String, directory: URL) throws -> Fleet {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["NUKE_FLEET_DIR"] = directory.path
        environment["NUKE_BIN"] = nukePath
        // The instances fetch from the origin on 127.0.0.1, which `nuke serve` refuses by default.
        environment["NUKE_SERVE_ALLOW_SOURCE_ADDRESSES"] = "127.0.0.1"
        let output = try Self.execute(["up", "--instances", "\(instances)"], environment: environment)
        guard let last = output.split(separator: "\n").last, last.hasPrefix("http") else {
            throw BenchmarkError(description: "fleet.sh up printed no URL: \(output.suffix(500))")
        }
        var base = String(last)
        while base.hasSuffix("/") { base.removeLast() }
        return Fleet(directory: directory, base: base, environment: environment)
    }

    /// Runs the script to completion and returns its output. Spawned and waited for with `waitpid` directly:
    /// Foundation's `Process.waitUntilExit` did not return for `up`, whose script had exited, while the servers it
    /// leaves running were alive.
    static func execute(_ arguments: [String], environment: [String: String]) throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-bench-fleet-\(UUID()).out")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try ServeProcess(
            name: "fleet.sh", executable: "/bin/bash", arguments: [script.path] + arguments,
            environment: environment.map { "\($0.key)=\($0.value)" }, log: log)
        let status = process.waitForExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw BenchmarkError(
                description: "fleet.sh \(arguments.joined(separator: " ")) failed (\(status)): \(output.suffix(500))")
        }
        return output
    }
}
