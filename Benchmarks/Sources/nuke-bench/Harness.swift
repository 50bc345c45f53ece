import Foundation

/// Paired timing: ours and a reference run alternately in the same process, so machine noise hits both.
struct Comparison {
    var name: String
    var reference: String
    /// Medians in milliseconds.
    var ours: Double
    var theirs: Double
    /// Ratio (ours ÷ reference) of each pair: median, min, max.
    var ratio: Double
    var ratioMin: Double
    var ratioMax: Double
    var goal: String
    /// Every measured run, paired.
    var oursRuns: [Double] = []
    var theirRuns: [Double] = []

    /// The row of the common table.
    func benchRow(section: String) -> BenchRow {
        BenchRow(
            section: section, name: name, reference: reference, ours: oursRuns, theirs: theirRuns,
            goal: Goal(goal))
    }

    var row: String {
        let name = self.name.padding(toLength: 44, withPad: " ", startingAt: 0)
        let reference = self.reference.padding(toLength: 26, withPad: " ", startingAt: 0)
        return "\(name) \(reference) \(format(ours)) \(format(theirs))  \(String(format: "%5.2f×", ratio))"
            + "  (\(String(format: "%.2f", ratioMin))–\(String(format: "%.2f", ratioMax)))  \(goal)"
    }

    static let header =
        "scenario".padding(toLength: 44, withPad: " ", startingAt: 0) + " "
        + "reference".padding(toLength: 26, withPad: " ", startingAt: 0)
        + "   ours ms   ref ms   ratio  (min–max)       goal"

    private func format(_ milliseconds: Double) -> String {
        String(format: "%9.2f", milliseconds)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

/// Runs `ours` and `reference` alternately: `warmUp` unmeasured pairs, then `runs` measured pairs.
func compare(
    _ name: String, against reference: String, goal: String, runs: Int, warmUp: Int = 2,
    ours: () async throws -> Void, reference run: () throws -> Void
) async throws -> Comparison {
    for _ in 0..<warmUp {
        try await ours()
        try run()
    }
    var oursTimes: [Double] = []
    var theirTimes: [Double] = []
    for index in 0..<runs {
        // Alternate which side goes first so that neither always runs on a warmer cache.
        if index % 2 == 0 {
            oursTimes.append(try await time(ours))
            theirTimes.append(try time(run))
        } else {
            theirTimes.append(try time(run))
            oursTimes.append(try await time(ours))
        }
    }
    let ratios = zip(oursTimes, theirTimes).map { $0 / $1 }
    return Comparison(
        name: name, reference: reference, ours: median(oursTimes), theirs: median(theirTimes),
        ratio: median(ratios), ratioMin: ratios.min() ?? 0, ratioMax: ratios.max() ?? 0, goal: goal,
        oursRuns: oursTimes, theirRuns: theirTimes)
}

func time(_ body: () async throws -> Void) async throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func time(_ body: () throws -> Void) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}
