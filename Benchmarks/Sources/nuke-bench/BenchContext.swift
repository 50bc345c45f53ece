import Foundation

/// What every section gets: the options and the report to add rows to.
struct BenchContext: Sendable {
    var isQuick: Bool
    /// `--only NAME`: run only scenarios whose name contains it.
    var only: String?
    var report: Report
    /// Arguments the common options don't use (passed on to the `processors` section).
    var extraArguments: [String]

    /// Measured runs per scenario (≥ 5).
    var runs: Int { isQuick ? 5 : 9 }

    /// Whether the scenario `name` runs under `--only`.
    func selected(_ name: String) -> Bool {
        guard let only else { return true }
        return name.localizedCaseInsensitiveContains(only)
    }

    /// The `Benchmarks` directory (found from this source file, so it works from any working directory).
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// Runs `body` `warmUp` times unmeasured, then `runs` times, returning each run's wall time in ms.
func sample(runs: Int, warmUp: Int = 1, _ body: () async throws -> Void) async throws -> [Double] {
    for _ in 0..<warmUp { try await body() }
    var times: [Double] = []
    for _ in 0..<runs { times.append(try await time(body)) }
    return times
}

/// Runs the bodies alternately (`warmUp` unmeasured rounds, then `runs` rounds, rotating which goes first),
/// returning each body's wall times in ms, paired by index.
func samplePaired(runs: Int, warmUp: Int = 1, _ bodies: [() async throws -> Void]) async throws -> [[Double]] {
    for _ in 0..<warmUp {
        for body in bodies { try await body() }
    }
    var times = [[Double]](repeating: [], count: bodies.count)
    for round in 0..<runs {
        for offset in 0..<bodies.count {
            let index = (round + offset) % bodies.count
            times[index].append(try await time(bodies[index]))
        }
    }
    return times
}
