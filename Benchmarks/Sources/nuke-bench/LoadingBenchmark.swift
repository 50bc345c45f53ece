import Foundation
import LoaderCurl
import LoaderURLSession
import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
        // The loader alone, without the pipeline: separates the transport's cost from the pipeline's. First six
        // in flight, the next load started from each completion callback — what the pipeline's data-loading queue
        // does, and `curl --parallel-max 6` in its loop — so the row measures the loader, not a hop through Swift
        // concurrency per load. Then all 1,000 handed to it at once, as curl gets its 1,000 URLs: the loader keeps
        // six per host in flight (its default limit) and starts the next as soon as curl is done with one, before
        // the caller is called back.
        let direct: [(name: String, inFlight: Int, note: String)] = [
            (
                "CurlDataLoader direct (no pipeline), 6 in flight", 6,
                "the transport alone; each completion starts the next"
            ),
            ("CurlDataLoader direct, all 1,000 submitted at once", urls.count, "the loader keeps 6 per host in flight"),
        ]
        for row in direct where context.selected(row.name) || context.selected(section) {
            let times = try await samplePaired(
                runs: context.runs,
                [{ try await Self.load(urls, with: CurlDataLoader(), inFlight: row.inFlight) }, curlCLI])
            context.report.add(
                BenchRow(
                    section: section, name: "1,000 × 50 KB: \(row.name)",
                    reference: "curl --parallel --parallel-max 6", ours: times[0], theirs: times[1],
                    goal: .atMost(1 / 0.9),
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

    /// Loads every URL with `loader` directly, keeping `inFlight` loads running: each completion starts the next.
    static func load(_ urls: [URL], with loader: CurlDataLoader, inFlight: Int) async throws {
        let chain = LoadChain(urls: urls, loader: loader)
        let total = try await chain.run(inFlight: inFlight)
        guard total == urls.count * fileSize else {
            throw BenchmarkError(description: "loaded \(total) bytes, expected \(urls.count * fileSize)")
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

/// Loads a list of URLs through one `DataLoading`, a fixed number at a time, starting the next load from each
/// completion callback (on the loader's thread, as a loop over `curl_multi` would).
private final class LoadChain: @unchecked Sendable {
    // @unchecked: the mutable fields are only touched under `lock`.
    private let lock = NSLock()
    private let urls: [URL]
    private let loader: any DataLoading
    private var next = 0
    private var remaining: Int
    private var total = 0
    private var failure: (any Error)?
    private var continuation: CheckedContinuation<Int, any Error>?

    init(urls: [URL], loader: any DataLoading) {
        self.urls = urls
        self.loader = loader
        remaining = urls.count
    }

    /// Loads every URL, `inFlight` at a time; returns the number of bytes loaded, or throws the first error.
    func run(inFlight: Int) async throws -> Int {
        guard !urls.isEmpty else { return 0 }
        return try await withCheckedThrowingContinuation { continuation in
            lock.withLock { self.continuation = continuation }
            for _ in 0..<inFlight { startNext() }
        }
    }

    private func startNext() {
        let url: URL? = lock.withLock {
            guard next < urls.count, failure == nil else { return nil }
            defer { next += 1 }
            return urls[next]
        }
        guard let url else { return }
        let body = LoadedBytes()
        _ = loader.loadData(
            with: URLRequest(url: url),
            didReceiveData: { chunk, _ in body.count += chunk.count },
            completion: { [self] error in finish(count: body.count, error: error) })
    }

    private func finish(count: Int, error: (any Error)?) {
        let done: (CheckedContinuation<Int, any Error>, Result<Int, any Error>)? = lock.withLock {
            remaining -= 1
            total += count
            if let error, failure == nil { failure = error }
            guard remaining == 0 || (failure != nil && remaining == urls.count - next) else { return nil }
            defer { continuation = nil }
            return continuation.map { ($0, failure.map { .failure($0) } ?? .success(total)) }
        }
        if let (continuation, result) = done {
            continuation.resume(with: result)
        } else {
            startNext()
        }
    }
}

/// The bytes one load received (its callbacks never run concurrently).
private final class LoadedBytes: @unchecked Sendable {
    // @unchecked: `didReceiveData` calls are serial and `completion` follows the last one.
    var count = 0
}
