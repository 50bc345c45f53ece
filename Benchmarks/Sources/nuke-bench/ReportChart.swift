import Foundation

/// A hand-written SVG bar chart of the ratios: one horizontal bar per row on a log₂ axis, drawn from the 1×
/// line (left of it = ours is faster), with the min–max as a whisker and the goal as a tick. Green = goal met,
/// red = missed, grey = informational.
struct ReportChart {
    let rows: [BenchRow]

    private let labelWidth = 680.0
    private let plotWidth = 520.0
    private let rowHeight = 22.0
    private let top = 50.0
    /// The axis spans 2^-range … 2^range.
    private let range = 5.0

    func svg() -> String {
        let height = top + Double(rows.count) * rowHeight + 40
        let width = labelWidth + plotWidth + 80
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="10" y="20" font-size="15" font-weight="bold">nuke-bench: ours ÷ reference \
            (log scale, left of 1× = ours is better)</text>

            """
        // Grid lines at powers of two.
        for exponent in stride(from: -range, through: range, by: 1) {
            let x = self.x(pow(2, exponent))
            let label = exponent >= 0 ? "\(Int(pow(2, exponent)))×" : "1/\(Int(pow(2, -exponent)))×"
            let stroke = exponent == 0 ? "#333" : "#ddd"
            out += line(x, top - 8, x, top + Double(rows.count) * rowHeight, stroke: stroke, width: 1)
            out += "<text x=\"\(f(x))\" y=\"\(f(top - 12))\" text-anchor=\"middle\" fill=\"#555\">\(label)</text>\n"
        }
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            let color =
                switch row.goal.isMet(by: row.ratio, ours: row.ours) {
                case true?: "#3a9a4a"
                case false?: "#d04040"
                case nil: "#9a9a9a"
                }
            let label = escape("\(row.section): \(row.name) vs \(row.reference)")
            out +=
                "<text x=\"\(f(labelWidth - 8))\" y=\"\(f(y + 15))\" text-anchor=\"end\">\(label)</text>\n"
            let one = x(1)
            let end = x(row.ratio)
            out +=
                "<rect x=\"\(f(min(one, end)))\" y=\"\(f(y + 4))\" width=\"\(f(max(1, abs(end - one))))\" "
                + "height=\"\(f(rowHeight - 8))\" fill=\"\(color)\"/>\n"
            out += line(
                x(row.ratioMin), y + rowHeight / 2, x(row.ratioMax), y + rowHeight / 2, stroke: "#222", width: 1)
            if case let .atMost(goal) = row.goal {
                out += line(x(goal), y + 2, x(goal), y + rowHeight - 2, stroke: "#000", width: 2)
            }
            let text = String(format: "%.2f×", row.ratio)
            out += "<text x=\"\(f(max(one, end) + 4))\" y=\"\(f(y + 15))\" fill=\"#222\">\(text)</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    private func x(_ ratio: Double) -> Double {
        let clamped = min(max(log2(max(ratio, 1e-9)), -range), range)
        return labelWidth + (clamped + range) / (2 * range) * plotWidth
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Int) -> String {
        "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(stroke)\" "
            + "stroke-width=\"\(width)\"/>\n"
    }

    private func f(_ value: Double) -> String { String(format: "%.1f", value) }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
