import Foundation
import NukeTestKit
import Testing

/// A fleet of `scripts/fleet.sh` in a temporary directory, serving the test's photo from its origin. ``down()`` stops
/// it and checks that nothing it started still runs; `deinit` runs `fleet.sh down` too, for a test that threw first.
final class Fleet {
    let directory: TemporaryDirectory
    let images: TemporaryDirectory
    let environment: [String: String]
    /// The balancer's URL, the last line `up` printed.
    private(set) var balancer = ""

    /// Why a fleet can't run here, if it can't.
    static var unavailableReason: String? {
        if let reason = NginxServer.unavailableReason ?? RedisServer.unavailableReason { return reason }
        let tools = ["/usr/bin/ab", "/usr/bin/curl", "/usr/bin/python3"]
        let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        return missing.isEmpty ? nil : "\(missing.joined(separator: ", ")) missing (scripts/setup.sh installs them)"
    }

    /// The concurrent connections of ``load(_:continuingFor:during:)``.
    static let connections = 8

    /// Brings a fleet of `instances` up with `environment` added to the test's, and the `nuke` next to the test binary.
    init(instances: Int, environment: [String: String] = [:]) async throws {
        directory = try TemporaryDirectory()
        images = try TemporaryDirectory()
        try images.write(ServeCommandTests.photo, to: "photo.png")
        self.environment = environment.merging([
            "NUKE_FLEET_DIR": directory.url.appendingPathComponent("fleet").path,
            "NUKE_BIN": try NukeProcess.executableURL().path,
        ]) { $1 }
        let up = try await run(["up", "--instances", "\(instances)", "--images", images.url.path])
        guard up.status == 0, let last = up.stdout.split(separator: "\n").last, last.hasPrefix("http://") else {
            throw NukeProcessError(description: "fleet.sh up failed (\(up.status)): \(up.stderr)")
        }
        balancer = String(last)
    }

    deinit {
        let process = Process()
        process.executableURL = FleetScriptTests.script
        process.arguments = ["down"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil { process.waitUntilExit() }
        directory.remove()
        images.remove()
    }

    /// Runs `fleet.sh arguments…` with the fleet's environment.
    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await FleetScriptTests.run([FleetScriptTests.script.path] + arguments, environment: environment)
    }

    /// `status`'s lines as (role, pid, port).
    func processes() async throws -> [(role: String, pid: Int32, port: Int)] {
        try await run(["status"]).stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let pid = Int32(fields[1]), let port = Int(fields[2]) else { return nil }
            return (String(fields[0]), pid, port)
        }
    }

    func port(of role: String) async throws -> Int {
        try #require(try await processes().first { $0.role == role }).port
    }

    /// Runs `down`, and checks that it succeeded and that every process `up` started has exited.
    func down() async throws {
        let started = try await processes()
        let result = try await run(["down"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!started.isEmpty)
        for process in started {
            #expect(!Self.isRunning(process.pid), "\(process.role) \(process.pid) still runs")
        }
    }

    /// Whether `pid` runs: an exited process, and a zombie nobody has reaped yet, have an empty command line.
    static func isRunning(_ pid: Int32) -> Bool {
        !(FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()).isEmpty
    }

    /// The path of a result of the origin's photo.
    func path(_ options: String) async throws -> String {
        "/unsafe/\(options)/plain/http://127.0.0.1:\(try await port(of: "origin"))/photo.png"
    }

    /// Requests for `path` in the origin's access log.
    func originRequests(for path: String) throws -> Int {
        try log("origin/access.log").filter { $0.contains("\"GET \(path) ") }.count
    }

    /// The lines of `name` in the fleet's directory (none while it doesn't exist).
    func log(_ name: String) throws -> [Substring] {
        let url = directory.url.appendingPathComponent("fleet").appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    }

    /// Waits (up to 30 s) until the fleet's Redis holds `count` entries of the instances, as `nuke cache stats` counts
    /// them.
    func waitForRedisEntries(_ count: Int) async throws {
        let url = "redis://127.0.0.1:\(try await port(of: "redis"))"
        let deadline = ContinuousClock.now + .seconds(30)
        var stats = ""
        while ContinuousClock.now < deadline {
            stats = try await NukeProcess.run(["cache", "stats", "--redis", url]).stdout
            let lines = stats.split(separator: "\n").map { $0.split(separator: " ") }
            if lines.contains(where: { $0 == ["entries", "\(count)"] }) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw NukeProcessError(description: "Redis never held \(count) entries: \(stats)")
    }
}
