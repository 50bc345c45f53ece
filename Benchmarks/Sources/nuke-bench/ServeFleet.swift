import Foundation

/// The fleet row of scenario 13: a cached result through `scripts/fleet.sh up --instances 2` (a load balancer in
/// front of two `nuke serve` instances sharing Redis) against `--instances 1`, on this machine: what the balancer and
/// Redis add, and what a second instance on the same cores gives back. Informational.
struct ServeFleet {
    static let name = "fleet of 2 vs 1 instance, cached result, c8"
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

    func run(nukePath: String, origin: String, directory: URL) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.script.path) else {
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
        let benchmark = ServeBenchmark(context: context)
        for fleet in fleets {
            try ServeBenchmark.check(.init(name: "fleet", base: fleet.base, path: path), mime: "image/jpeg")
        }
        let results = try await benchmark.measure(
            fleets.map { ServeBenchmark.Target(name: "fleet", base: $0.base, path: path) })
        benchmark.addRows(
            name: Self.name, ours: results[0], theirs: results[1], reference: "scripts/fleet.sh --instances 1",
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

    static func execute(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + arguments
        process.environment = environment
        // A file, not a pipe: the servers the script leaves running inherit its output and would hold a pipe open.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-bench-fleet-\(UUID()).out")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let output = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(
                description: "fleet.sh \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): "
                    + output.suffix(500))
        }
        return output
    }
}
