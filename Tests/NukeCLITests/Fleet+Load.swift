import Foundation
import NukeTestKit

extension Fleet {
    /// What ``Fleet/load(_:continuingFor:during:)`` did, summed over its `ab` runs.
    struct Load: Sendable, CustomStringConvertible {
        /// Requests `ab` was asked to make.
        var requested = 0
        /// Requests that got a response.
        var complete = 0
        /// Requests that failed (connect, receive, length, exceptions) or got a status outside 2xx.
        var failed = 0
        /// The exit status of each `ab` run.
        var exitStatuses: [Int32] = []

        var description: String {
            "\(complete) of \(requested) complete, \(failed) failed, ab exited with \(exitStatuses)"
        }
    }

    /// Keeps ``connections`` keep-alive connections busy with requests for `url` through `ab`, in runs of 1,000
    /// requests one after another, from before `body` starts (once the balancer has logged 100 of them) until `body`
    /// has returned and the balancer has logged `after` more. Returns the load and what `body` returned.
    func load<T>(
        _ url: String, continuingFor after: Int = 1_000, during body: () async throws -> T
    ) async throws -> (load: Load, result: T) {
        let stop = StopSignal()
        let accessLog = "balancer/access.log"
        let batches = Task { [url, stop] in try await Fleet.batches(of: url, until: stop) }
        do {
            let start = try log(accessLog).count
            try await waitUntil("the load started") { try log(accessLog).count >= start + 100 }
            let result = try await body()
            let end = try log(accessLog).count
            try await waitUntil("the load went on") { try log(accessLog).count >= end + after }
            stop.set()
            return (try await batches.value, result)
        } catch {
            stop.set()
            _ = try? await batches.value
            throw error
        }
    }

    /// Checks `condition` every 50 ms, for at most 60 s (the load's requests take far less).
    private func waitUntil(_ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw NukeProcessError(description: "timed out: \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// `ab` runs of 1,000 requests for `url`, one after another until `stop` is set.
    private static func batches(of url: String, until stop: StopSignal) async throws -> Load {
        var load = Load()
        repeat {
            let count = 1_000
            // -r: a failed request is counted, not the end of the run; -q: no progress lines.
            let result = try await FleetScriptTests.run(
                ["ab", "-q", "-r", "-k", "-c", "\(connections)", "-n", "\(count)", url])
            func number(_ label: String) -> Int {
                let line = result.stdout.split(separator: "\n").first { $0.hasPrefix(label) }
                return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
            }
            load.requested += count
            load.complete += number("Complete requests:")
            load.failed += number("Failed requests:") + number("Non-2xx responses:")
            load.exitStatuses.append(result.status)
        } while !stop.isSet
        return load
    }
}

/// A flag one task sets and another reads.
private final class StopSignal: @unchecked Sendable {
    // @unchecked: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() {
        lock.withLock { value = true }
    }
}
