import Foundation

/// The `wrk` HTTP load generator: `wrk -t2 -c8 -dNs --latency`, optionally with `distinct-paths.lua` making every
/// request's path distinct, and its report parsed.
struct Wrk {
    /// What one run measured.
    struct Result {
        var requestsPerSecond: Double
        var requests: Int
        /// Latency percentiles (50, 75, 90, 99) in ms.
        var percentiles: [Int: Double]

        var p99: Double { percentiles[99] ?? .nan }
        /// Wall time per request at this concurrency (1000 ÷ requests/s), the unit of the throughput rows.
        var millisecondsPerRequest: Double { 1_000 / requestsPerSecond }
    }

    static let executable = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// `Benchmarks/serve/distinct-paths.lua`.
    static let distinctScript = BenchContext.packageDirectory.appendingPathComponent("serve/distinct-paths.lua")

    var threads = 2
    var connections = 8

    /// Runs wrk against `base` (`http://127.0.0.1:PORT`) for `seconds`. With a `template` every request's path is
    /// the template with `{n}` replaced by a token unique within the run (`<thread>x<count>` after `tag`);
    /// without one every request asks for `path`. Throws when any response isn't 2xx or any socket error occurs,
    /// so a row never counts errors as throughput.
    func run(
        base: String, path: String? = nil, template: String? = nil, accept: String? = nil, seconds: Int
    )
        throws -> Result
    {
        guard let executable = Self.executable else {
            throw BenchmarkError(description: "wrk is missing (scripts/setup.sh --benchmarks)")
        }
        var arguments = [
            "-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", "--timeout", "30s",
        ]
        if let accept { arguments += ["-H", "Accept: \(accept)"] }
        if let template {
            arguments += ["-s", Self.distinctScript.path, base + "/", "--", template]
        } else {
            arguments.append(base + (path ?? "/"))
        }
        let (status, output) = try DebugBuildBenchmark.execute(executable, arguments)
        guard status == 0 else { throw BenchmarkError(description: "wrk failed (\(status)): \(output.suffix(500))") }
        return try Self.parse(output)
    }

    /// Parses wrk's report (`Requests/sec:`, the `--latency` distribution, error lines).
    static func parse(_ output: String) throws -> Result {
        var result = Result(requestsPerSecond: 0, requests: 0, percentiles: [:])
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if line.contains("Non-2xx or 3xx responses") || line.contains("Socket errors") {
                throw BenchmarkError(description: "wrk saw errors: \(line.trimmingCharacters(in: .whitespaces))")
            }
            if first == "Requests/sec:", fields.count > 1, let value = Double(fields[1]) {
                result.requestsPerSecond = value
            } else if fields.count > 1, fields[1] == "requests", let value = Int(first) {
                result.requests = value
            } else if first.hasSuffix("%"), fields.count == 2, let percent = Int(first.dropLast()),
                let milliseconds = milliseconds(fields[1])
            {
                result.percentiles[percent] = milliseconds
            }
        }
        guard result.requestsPerSecond > 0, result.percentiles[99] != nil else {
            throw BenchmarkError(description: "wrk printed no result: \(output.suffix(500))")
        }
        return result
    }

    /// `123.45us`, `31.48ms`, `1.02s`, `2.00m` in ms.
    private static func milliseconds(_ text: Substring) -> Double? {
        for (suffix, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1_000.0), ("m", 60_000.0)]
        where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
}
