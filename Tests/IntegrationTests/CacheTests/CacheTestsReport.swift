import Foundation

/// The score of a run: per group of the suite, how many applicable tests of each kind passed, beside the browsers'
/// published results on the same tests, and the tests that don't apply with the reason.
struct CacheTestsReport {
    struct Score {
        var passed = 0
        var total = 0
        var browsers: [Int]

        init(browsers count: Int) { browsers = Array(repeating: 0, count: count) }

        var text: String { "\(passed)/\(total)" }
    }

    let definition: CacheTestsDefinition
    let browsers: [CacheTestsBrowserResults]
    let outcomes: [String: CacheTestsOutcome]

    /// The browser-mode tests: the ones a private client cache runs.
    static func browserTests(of definition: CacheTestsDefinition) -> [CacheTestsTest] {
        definition.groups.flatMap(\.tests).filter(\.isBrowserMode)
    }

    /// Required and optimal scores over every applicable test.
    func totals() -> [CacheTestsTest.Kind: Score] {
        var scores: [CacheTestsTest.Kind: Score] = [:]
        for test in Self.browserTests(of: definition) where test.notApplicableReason == nil {
            add(test, to: &scores[test.kind, default: Score(browsers: browsers.count)])
        }
        return scores
    }

    /// Applicable tests of `kind` that didn't pass, with the failure and any dependency that failed too.
    func failures(of kind: CacheTestsTest.Kind) -> [String] {
        Self.browserTests(of: definition).filter { $0.kind == kind && $0.notApplicableReason == nil }.compactMap {
            test in
            guard let outcome = outcomes[test.id], !outcome.isPass else { return nil }
            let failedDependencies = test.dependsOn.filter { outcomes[$0]?.isPass == false }
            let note =
                failedDependencies.isEmpty ? "" : " (dependency failed: \(failedDependencies.joined(separator: ", ")))"
            return "\(test.id): \(outcome)\(note)"
        }
    }

    private func add(_ test: CacheTestsTest, to score: inout Score) {
        score.total += 1
        if outcomes[test.id]?.isPass == true { score.passed += 1 }
        for (index, browser) in browsers.enumerated() where browser.passed.contains(test.id) {
            score.browsers[index] += 1
        }
    }

    /// The table: one line per group with required and optimal scores, ours then each browser's, then the totals,
    /// the failures and the tests that don't apply.
    var text: String {
        let names = browsers.map(\.name)
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        func row(_ name: String, _ scores: [CacheTestsTest.Kind: Score]) -> String {
            let columns = [CacheTestsTest.Kind.required, .optimal].map { kind -> String in
                let score = scores[kind] ?? Score(browsers: browsers.count)
                guard score.total > 0 else { return pad("-", 40) }
                return pad(([score.text] + score.browsers.map { "\($0)" }).joined(separator: " "), 40)
            }
            return pad(name, 28) + columns.joined()
        }
        let legend = "Nuke " + names.joined(separator: " ")
        var lines = [pad("cache-tests (browser mode)", 28) + pad("required: " + legend, 40) + "optimal: " + legend]
        for group in definition.groups {
            var scores: [CacheTestsTest.Kind: Score] = [:]
            for test in group.tests where test.isBrowserMode && test.notApplicableReason == nil {
                add(test, to: &scores[test.kind, default: Score(browsers: browsers.count)])
            }
            if scores[.required] != nil || scores[.optimal] != nil { lines.append(row(group.id, scores)) }
        }
        lines.append(row("total", totals()))
        for kind in [CacheTestsTest.Kind.required, .optimal] {
            let failed = failures(of: kind)
            if !failed.isEmpty { lines.append("failed \(kind.rawValue):\n  " + failed.joined(separator: "\n  ")) }
        }
        // Passes judged on part of what the suite checks, because a data(for:) client can't see the rest.
        let partialPasses: [(String, (CacheTestsTest) -> Bool)] = [
            (
                "passed without their checks of a cached or revalidated response's headers (data(for:) shows none)",
                \.checksStoredHeaders
            ),
            (
                "passed on the status and the origin's record alone (an error status: data(for:) shows no body or "
                    + "headers)", \.answersWithErrorStatus
            ),
        ]
        for (label, isPartial) in partialPasses {
            let passes = Self.browserTests(of: definition).filter {
                $0.kind != .check && $0.notApplicableReason == nil && isPartial($0) && outcomes[$0.id]?.isPass == true
            }
            if !passes.isEmpty {
                lines.append("\(label): \(passes.count)\n  " + passes.map(\.id).joined(separator: ", "))
            }
        }
        let notApplicable = Self.browserTests(of: definition).filter { $0.kind != .check }.compactMap { test in
            test.notApplicableReason.map { "\(test.id) (\(test.kind.rawValue)): \($0)" }
        }
        lines.append("not applicable:\n  " + notApplicable.joined(separator: "\n  "))
        return lines.joined(separator: "\n")
    }
}
