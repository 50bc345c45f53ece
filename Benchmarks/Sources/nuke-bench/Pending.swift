/// Scenario 4 (not written yet).
struct LoadingBenchmark {
    let context: BenchContext
    func run() async throws {
        context.report.add(
            .skipped(section: "loading", name: "1,000 × 50 KB from nginx", reference: "curl --parallel", reason: "not written yet"))
    }
}

/// Scenario 6 (not written yet).
struct FeedBenchmark {
    let context: BenchContext
    func run() async throws {
        context.report.add(
            .skipped(section: "e2e", name: "300-image feed", reference: "Python", reason: "not written yet"))
    }
}

/// Scenario 9 (not written yet).
struct MemoryBenchmark {
    static let childCommand = "memory-child"
    let context: BenchContext
    static func runChild(arguments: [String]) async {}
    func run() async throws {
        context.report.add(
            .skipped(section: "memory", name: "peak RSS, 5,000 × 1 MP", reference: "limit + 150 MB", reason: "not written yet"))
    }
}
