/// Scenario 6 (not written yet).
struct FeedBenchmark {
    let context: BenchContext
    func run() async throws {
        context.report.add(
            .skipped(section: "e2e", name: "300-image feed", reference: "Python", reason: "not written yet"))
    }
}

