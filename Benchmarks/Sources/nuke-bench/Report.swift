import Foundation

/// What a row's ratio must be to meet the scenario's goal.
enum Goal: CustomStringConvertible, Sendable {
    /// The ratio must be at most this (ours ÷ reference; lower is better).
    case atMost(Double)
    /// Informational: no goal.
    case info
    /// Our median itself must be at most this, in the row's unit (an absolute budget, such as µs per request);
    /// the ratio to the reference is shown for scale.
    case oursAtMost(Double)

    /// Parses the goal strings of the older sections ("≤ 1.10×", "info").
    init(_ text: String) {
        let digits = text.filter { $0.isNumber || $0 == "." }
        if text.hasPrefix("≤"), let value = Double(digits) {
            self = .atMost(value)
        } else {
            self = .info
        }
    }

    var description: String {
        switch self {
        case let .atMost(value): String(format: "≤ %.2f×", value)
        case .info: "info"
        case let .oursAtMost(value): String(format: "max %g", value)
        }
    }

    /// Whether a row with this median ratio and our median meets the goal; `nil` for informational rows.
    func isMet(by ratio: Double, ours: Double) -> Bool? {
        switch self {
        case let .atMost(value): ratio <= value
        case .info: nil
        case let .oursAtMost(value): ours <= value
        }
    }
}

/// One line of the common table: our measurement divided by a reference measured in the same run.
struct BenchRow: Sendable {
    /// The section that produced the row (`codecs`, `processors`, `sharing`, …).
    var section: String
    var name: String
    var reference: String
    /// The unit of `ours` and `theirs` ("ms", "µs/op", "downloads", "MB", …).
    var unit: String = "ms"
    /// Medians.
    var ours: Double
    var theirs: Double
    /// Median of the per-run ratios (ours ÷ reference), and their min and max.
    var ratio: Double
    var ratioMin: Double
    var ratioMax: Double
    var goal: Goal
    /// Extra facts (PSNR, counts, why it's skipped).
    var note: String = ""
    /// Set when the scenario couldn't run: the reason.
    var skipped: String?

    /// A row for paired samples (`ours[i]` and `theirs[i]` measured back to back).
    init(
        section: String, name: String, reference: String, unit: String = "ms", ours: [Double], theirs: [Double],
        goal: Goal, note: String = ""
    ) {
        let ratios = zip(ours, theirs).map { $1 > 0 ? $0 / $1 : .infinity }
        self.section = section
        self.name = name
        self.reference = reference
        self.unit = unit
        self.ours = median(ours)
        self.theirs = median(theirs)
        self.ratio = median(ratios)
        self.ratioMin = ratios.min() ?? 0
        self.ratioMax = ratios.max() ?? 0
        self.goal = goal
        self.note = note
    }

    /// A row for a scenario that couldn't run.
    static func skipped(section: String, name: String, reference: String, reason: String) -> BenchRow {
        var row = BenchRow(section: section, name: name, reference: reference, ours: [], theirs: [], goal: .info)
        row.skipped = reason
        return row
    }

    var verdict: String {
        if skipped != nil { return "skipped" }
        switch goal.isMet(by: ratio, ours: ours) {
        case true?: return "met"
        case false?: return "MISSED"
        case nil: return "—"
        }
    }

    /// The plain-text line printed as rows come in.
    var line: String {
        let name = self.name.padding(toLength: 54, withPad: " ", startingAt: 0)
        let reference = self.reference.padding(toLength: 28, withPad: " ", startingAt: 0)
        if let skipped { return "\(name) \(reference) skipped: \(skipped)" }
        let values = "\(Self.format(ours)) \(Self.format(theirs)) \(unit)".padding(
            toLength: 30, withPad: " ", startingAt: 0)
        // Padded, never cut: ratios of 100 and more make the range longer than the column.
        let rangeText = "(\(String(format: "%.2f", ratioMin))–\(String(format: "%.2f", ratioMax)))"
        let range = rangeText + String(repeating: " ", count: max(0, 13 - rangeText.count))
        let goalText = goal.description.padding(toLength: 8, withPad: " ", startingAt: 0)
        return "\(name) \(reference) \(values) \(String(format: "%6.2f×", ratio)) \(range) \(goalText) \(verdict)"
            + (note.isEmpty ? "" : "  \(note)")
    }

    static let header =
        "scenario".padding(toLength: 54, withPad: " ", startingAt: 0) + " "
        + "reference".padding(toLength: 28, withPad: " ", startingAt: 0) + " "
        + "ours / reference (medians)".padding(toLength: 30, withPad: " ", startingAt: 0)
        + "  ratio (min–max)      goal"

    static func format(_ value: Double) -> String {
        if value >= 1000 { return String(format: "%9.0f", value) }
        if value >= 10 { return String(format: "%9.1f", value) }
        return String(format: "%9.3f", value)
    }
}

/// Collects every section's rows, prints them as one table and writes `results/latest.md` and
/// `results/latest.svg`.
final class Report: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `lock`; the rest is immutable.
    private let lock = NSLock()
    private var storage: [BenchRow] = []
    var rows: [BenchRow] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
    let command: String
    let isQuick: Bool

    init(command: String, isQuick: Bool) {
        self.command = command
        self.isQuick = isQuick
    }

    /// Adds a row and prints it at once, so that a long run shows progress.
    func add(_ row: BenchRow) {
        lock.lock()
        storage.append(row)
        lock.unlock()
        print(row.line)
        fflush(nil)
    }

    func add(_ newRows: [BenchRow]) {
        for row in newRows { add(row) }
    }

    /// The whole table, grouped by section.
    func printTable() {
        print("")
        print("== nuke-bench summary: ratio = ours ÷ reference (lower is better), medians of paired runs ==")
        print(BenchRow.header)
        var section = ""
        for row in rows {
            if row.section != section {
                section = row.section
                print("-- \(section)")
            }
            print(row.line)
        }
        let missed = rows.filter { $0.verdict == "MISSED" }
        print("")
        print(
            "\(rows.count) rows, \(missed.count) missed their goal, \(rows.filter { $0.skipped != nil }.count) skipped")
    }

    /// Writes `<baseName>.md` and `<baseName>.svg` into `directory`.
    func write(to directory: URL, baseName: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try markdown().write(
            to: directory.appendingPathComponent("\(baseName).md"), atomically: true, encoding: .utf8)
        try ReportChart(rows: rows.filter { $0.skipped == nil }).svg()
            .write(to: directory.appendingPathComponent("\(baseName).svg"), atomically: true, encoding: .utf8)
    }

    func markdown() -> String {
        let date = ISO8601DateFormatter().string(from: Date())
        var text = """
            # nuke-bench results

            `\(command)` — \(date), \(cpuSummary())\(isQuick ? ", **--quick** (fewer runs)" : "").

            Ratio = ours ÷ reference, both measured in the same run: the median of the per-run ratios of ≥ 5 \
            measured runs after a warm-up, with their min–max. Below 1 means ours is faster (or smaller).

            | section | scenario | reference | ours | reference | unit | ratio | min–max | goal | verdict | notes |
            |---|---|---|--:|--:|---|--:|---|---|---|---|

            """
        for row in rows {
            if let skipped = row.skipped {
                text += "| \(row.section) | \(row.name) | \(row.reference) | | | | | | | skipped | \(skipped) |\n"
                continue
            }
            let cells = [
                row.section, row.name, row.reference, BenchRow.format(row.ours).trimmed,
                BenchRow.format(row.theirs).trimmed, row.unit, String(format: "%.2f×", row.ratio),
                String(format: "%.2f–%.2f", row.ratioMin, row.ratioMax), row.goal.description, row.verdict,
                row.note,
            ]
            text +=
                "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ")
                + " |\n"
        }
        return text
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
