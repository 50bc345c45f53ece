import CacheDisk
import Foundation
import LoaderCurl
import NukeCore

/// Scenario 6, end to end: a 300-image feed — fetch from a local nginx, decode, resize to fit 256 px, cache —
/// by our pipeline (`CurlDataLoader`, a fresh `DataCache` and memory cache per run) vs what a Linux user
/// would write instead in Python: asyncio + httpx + Pillow, and the same with pyvips (`python/feed.py`). The
/// Python side is installed from PyPI into `Benchmarks/.venv` on the first run; if that fails, the rows are
/// skipped with the reason.
struct FeedBenchmark {
    let context: BenchContext
    let section = "e2e"
    static let count = 300

    func run() async throws {
        guard context.selected("300-image feed") || context.selected(section) else { return }
        guard BenchNginx.executable != nil else {
            skip("nginx is missing (scripts/setup.sh --benchmarks installs nginx-light)")
            return
        }
        let jpeg = try benchJPEG(width: 1200, height: 900)
        var files: [String: Data] = [:]
        for index in 0..<Self.count { files["p\(index).jpg"] = jpeg }
        let nginx = try BenchNginx(files: files)
        defer { nginx.stop() }
        let urls = (0..<Self.count).map { nginx.url("p\($0).jpg") }

        let python: String
        do {
            python = try PythonEnvironment.prepare()
        } catch {
            skip("the Python environment could not be set up: \(error)")
            return
        }
        // Rounds: ours (rate limiter on), ours without the rate limiter, then each Python variant once (its own
        // timing, which leaves out interpreter start-up and imports); a first round is the warm-up.
        let names = ["ours (rate limiter on)", "ours, no rate limiter"]
        var references = [
            (mode: "pillow", name: "Python asyncio + httpx + Pillow", error: String?.none),
            (mode: "pyvips", name: "Python asyncio + httpx + pyvips", error: String?.none),
        ]
        var ours: [[Double]] = [[], []]
        var theirs: [[Double]] = [[], []]
        for round in 0...context.runs {
            for (index, rateLimiter) in [true, false].enumerated() {
                let elapsed = try await time { try await Self.loadFeed(urls, rateLimiter: rateLimiter) }
                if round > 0 { ours[index].append(elapsed) }
            }
            for index in references.indices where references[index].error == nil {
                do {
                    let times = try PythonEnvironment.run(
                        python, script: "feed.py",
                        arguments: [
                            "--mode", references[index].mode, "--base", nginx.url("").absoluteString, "--count",
                            "\(Self.count)", "--runs", "1", "--warmup", "0",
                        ])
                    if round > 0 { theirs[index] += times }
                } catch {
                    references[index].error = "\(error)"
                }
            }
        }
        for (index, reference) in references.enumerated() {
            if let error = reference.error {
                context.report.add(
                    .skipped(section: section, name: "300-image feed", reference: reference.name, reason: error))
                continue
            }
            for (oursIndex, name) in names.enumerated() {
                context.report.add(
                    BenchRow(
                        section: section, name: "300-image feed → 256 px, \(name)", reference: reference.name,
                        ours: ours[oursIndex], theirs: theirs[index], goal: .atMost(1),
                        note: "Python's time excludes interpreter start-up and imports"))
            }
        }
    }

    private func skip(_ reason: String) {
        context.report.add(
            .skipped(section: section, name: "300-image feed", reference: "Python (Pillow, pyvips)", reason: reason))
    }

    /// One feed: every URL requested at once with a 256 px thumbnail, through a pipeline with a fresh disk cache
    /// (original data) and memory cache.
    static func loadFeed(_ urls: [URL], rateLimiter: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-bench-feed-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataCache = try DataCache(path: directory)
        let registry = makeBenchRegistry()
        let pipeline = ImagePipeline {
            $0.dataLoader = CurlDataLoader()
            $0.imageCache = ImageCache()
            $0.dataCache = dataCache
            $0.isRateLimiterEnabled = rateLimiter
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for url in urls {
                var request = ImageRequest(url: url)
                request.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 256)
                group.addTask {
                    let image = try await pipeline.image(for: request)
                    guard max(image.width, image.height) == 256 else {
                        throw BenchmarkError(description: "unexpected size \(image.width)×\(image.height)")
                    }
                }
            }
            try await group.waitForAll()
        }
        // The Python side's writes are synchronous; make ours complete too.
        dataCache.flush()
    }
}

/// `Benchmarks/.venv` with `python/requirements.txt` installed from PyPI, created on first use.
enum PythonEnvironment {
    static let venv = BenchContext.packageDirectory.appendingPathComponent(".venv")
    static let scripts = BenchContext.packageDirectory.appendingPathComponent("python")

    /// Returns the venv's python, creating the venv and installing the requirements if needed.
    static func prepare() throws -> String {
        let python = venv.appendingPathComponent("bin/python").path
        let marker = venv.appendingPathComponent(".nuke-bench-installed")
        if FileManager.default.fileExists(atPath: marker.path) { return python }
        let candidates =
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/python3" } + ["/usr/bin/python3"]
        guard let system = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchmarkError(description: "python3 is not installed")
        }
        print("setting up \(venv.path) (first run: pip install -r python/requirements.txt)…")
        guard try runCommand(system, ["-m", "venv", venv.path]) == 0 else {
            throw BenchmarkError(description: "`\(system) -m venv` failed (apt-get install python3-venv)")
        }
        let status = try runCommand(
            python,
            [
                "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r",
                scripts.appendingPathComponent("requirements.txt").path,
            ])
        guard status == 0 else { throw BenchmarkError(description: "pip install failed (status \(status))") }
        try Data().write(to: marker)
        return python
    }

    /// Runs a script from `python/` and returns the `times_ms` of its JSON output.
    static func run(_ python: String, script: String, arguments: [String]) throws -> [Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scripts.appendingPathComponent(script).path] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(
                description: "\(script) failed (\(process.terminationStatus)): \(errorText.suffix(300))")
        }
        struct Result: Decodable { var times_ms: [Double] }
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
            let result = try? JSONDecoder().decode(Result.self, from: Data(line.utf8))
        else { throw BenchmarkError(description: "\(script) printed no result") }
        return result.times_ms
    }
}
