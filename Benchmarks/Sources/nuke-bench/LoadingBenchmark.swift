import Foundation
import LoaderCurl
import LoaderURLSession
import NukeCore

/// Scenario 4, loading: 1,000 distinct 50 KB files from a local nginx, all requested at once —
/// `CurlDataLoader` through `pipeline.data(for:)` vs the curl CLI (`--parallel --parallel-max 6`, the same
/// six connections the loader uses by default) vs `DataLoader` (URLSession) through the pipeline.
struct LoadingBenchmark {
    let context: BenchContext
    let section = "loading"
    static let fileCount = 1000
    static let fileSize = 50 * 1024

    func run() async throws {
        let rowNames = [
            "CurlDataLoader direct (no pipeline), 6 in flight", "CurlDataLoader direct, all 1,000 submitted at once",
            "CurlDataLoader via pipeline (rate limiter on)", "CurlDataLoader via pipeline, no rate limiter",
            "DataLoader (URLSession) via pipeline, no rate limiter",
        ]
        guard context.selected(section) || rowNames.contains(where: { context.selected("1,000 × 50 KB: \($0)") })
        else { return }
        guard
            let curl = ["/usr/bin/curl", "/usr/local/bin/curl"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            context.report.add(
                .skipped(
                    section: section, name: "1,000 × 50 KB", reference: "curl CLI",
                    reason: "the curl command is missing (apt-get install curl)"))
            return
        }
        guard BenchNginx.executable != nil else {
            context.report.add(
                .skipped(
                    section: section, name: "1,000 × 50 KB", reference: "curl CLI",
                    reason: "nginx is missing (scripts/setup.sh --benchmarks installs nginx-light)"))
            return
        }
        var generator = SplitMix(state: 4)
        var files: [String: Data] = [:]
        for index in 0..<Self.fileCount {
            files["f\(index).bin"] = Data((0..<Self.fileSize).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        let nginx = try BenchNginx(files: files)
        defer { nginx.stop() }
        let urls = (0..<Self.fileCount).map { nginx.url("f\($0).bin") }
        let config = nginx.directory.appendingPathComponent("curl.config")
        try urls.map { "url = \"\($0.absoluteString)\"\noutput = \"/dev/null\"\n" }.joined()
            .write(to: config, atomically: true, encoding: .utf8)

        let curlCLI: () async throws -> Void = {
            let status = try runCommand(
                curl, ["--silent", "--fail", "--parallel", "--parallel-max", "6", "--config", config.path])
            guard status == 0 else { throw BenchmarkError(description: "curl exited with \(status)") }
        }
        let candidates: [(name: String, make: () -> ImagePipeline)] = [
            ("CurlDataLoader via pipeline (rate limiter on)", { Self.pipeline(CurlDataLoader(), rateLimiter: true) }),
            ("CurlDataLoader via pipeline, no rate limiter", { Self.pipeline(CurlDataLoader(), rateLimiter: false) }),
            (
                "DataLoader (URLSession) via pipeline, no rate limiter",
                {
                    Self.pipeline(DataLoader(), rateLimiter: false)
                }
            ),
        ]
        // The loader alone, without the pipeline: separates the transport's cost from the pipeline's. Six in
        // flight, a new one started as each finishes — what `curl --parallel-max 6` does — so the row measures the
        // loader, not how it queues; the second row hands it all 1,000 at once (it queues them per host).
        let direct: [(name: String, inFlight: Int, goal: Goal, note: String)] = [
            ("CurlDataLoader direct (no pipeline), 6 in flight", 6, .atMost(1 / 0.9), "the transport alone"),
            ("CurlDataLoader direct, all 1,000 submitted at once", urls.count, .info, "the loader queues 994"),
        ]
        for row in direct where context.selected(row.name) || context.selected(section) {
            let times = try await samplePaired(
                runs: context.runs,
                [{ try await Self.load(urls, with: CurlDataLoader(), inFlight: row.inFlight) }, curlCLI])
            context.report.add(
                BenchRow(
                    section: section, name: "1,000 × 50 KB: \(row.name)",
                    reference: "curl --parallel --parallel-max 6", ours: times[0], theirs: times[1], goal: row.goal,
                    note: row.note))
        }
        for candidate in candidates
        where context.selected("1,000 × 50 KB: \(candidate.name)") || context.selected(section) {
            let times = try await samplePaired(
                runs: context.runs,
                [{ try await Self.load(urls, with: candidate.make()) }, curlCLI])
            let isGoal = candidate.name.hasPrefix("CurlDataLoader")
            context.report.add(
                BenchRow(
                    section: section, name: "1,000 × 50 KB: \(candidate.name)",
                    reference: "curl --parallel --parallel-max 6", ours: times[0], theirs: times[1],
                    goal: isGoal ? .atMost(1 / 0.9) : .info,
                    note: "time ratio; goal ≥ 0.9× curl's throughput"))
        }
    }

    static func pipeline(_ loader: any DataLoading, rateLimiter: Bool) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.dataCache = nil
            $0.isRateLimiterEnabled = rateLimiter
        }
    }

    /// Loads every URL with `loader` directly, keeping `inFlight` loads running (a new one starts as each ends).
    static func load(_ urls: [URL], with loader: CurlDataLoader, inFlight: Int) async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var pending = urls.makeIterator()
            for _ in 0..<inFlight {
                guard let url = pending.next() else { break }
                group.addTask { try await loadData(url, with: loader).count }
            }
            var total = 0
            for try await count in group {
                total += count
                if let url = pending.next() { group.addTask { try await loadData(url, with: loader).count } }
            }
            guard total == urls.count * fileSize else {
                throw BenchmarkError(description: "loaded \(total) bytes, expected \(urls.count * fileSize)")
            }
        }
    }

    static func load(_ urls: [URL], with pipeline: ImagePipeline) async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for url in urls {
                group.addTask { try await pipeline.data(for: url).0.count }
            }
            var total = 0
            for try await count in group { total += count }
            guard total == urls.count * fileSize else {
                throw BenchmarkError(description: "loaded \(total) bytes, expected \(urls.count * fileSize)")
            }
        }
    }
}
