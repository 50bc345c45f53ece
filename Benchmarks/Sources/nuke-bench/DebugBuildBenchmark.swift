import Foundation
import NukeCore

/// Scenario 3, debug builds: how much slower resize and blur are when NukeCore is built the way an app under
/// development builds it (`-c debug`, Swift at `-Onone`, C at `-O0`) than in release.
///
/// Builds the `processor-timer` executable of this package with `-c debug` and with `-c release` into a scratch
/// path of its own (`Benchmarks/.build/processor-timer`, so the builds are cached between runs and never wait on
/// the build that runs nuke-bench), writes the test image to a temporary file, and runs the two executables
/// alternately, each in a fresh process: every sample is the median of three measured runs after one warm-up.
/// Goal: the debug build within 5× of release.
struct DebugBuildBenchmark {
    let options: BenchOptions
    /// Samples (child processes) per configuration.
    let runs: Int
    static let goal = 5.0

    func run() throws -> [BenchRow] {
        let cases = [
            (filter: "debug-resize-256", operation: "resize-256", width: 4000, height: 3000, name: "resize"),
            (filter: "debug-blur", operation: "blur-8", width: 1920, height: 1080, name: "blur"),
        ].filter { options.matches($0.filter) }
        guard !cases.isEmpty else { return [] }
        let debug = try Self.build(configuration: "debug")
        let release = try Self.build(configuration: "release")
        var rows: [BenchRow] = []
        for entry in cases {
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("nuke-bench-\(getpid())-\(entry.width)x\(entry.height).rgba")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(ProcessorTestImages.photo(width: entry.width, height: entry.height).bytes).write(to: file)
            let arguments = [entry.operation, file.path, String(entry.width), String(entry.height)]
            let samples = try samplePaired(runs: runs) { configuration in
                try Self.time(configuration == 0 ? debug : release, arguments: arguments)
            }
            let name =
                entry.name == "resize"
                ? "resize 4000×3000 → 256×192, debug build" : "blur 1920×1080 σ=8, debug build"
            rows.append(
                BenchRow(
                    section: "processors", name: name, reference: "the same, release build", ours: samples[0],
                    theirs: samples[1], goal: .atMost(Self.goal),
                    note: "fresh process per sample: median of 3 runs after a warm-up"))
        }
        return rows
    }

    /// Runs `sample(0)` (debug) and `sample(1)` (release) alternately, `runs` times each, rotating which goes first.
    private func samplePaired(runs: Int, _ sample: (Int) throws -> Double) throws -> [[Double]] {
        var samples: [[Double]] = [[], []]
        for round in 0..<runs {
            for offset in 0..<2 {
                let configuration = (round + offset) % 2
                samples[configuration].append(try sample(configuration))
            }
        }
        return samples
    }

    /// The `Benchmarks/.build` sub-directory the two configurations are built in.
    static let scratchPath = BenchContext.packageDirectory.appendingPathComponent(".build/processor-timer").path

    /// Builds `processor-timer` in `configuration` and returns the executable's path.
    static func build(configuration: String) throws -> URL {
        print("building processor-timer -c \(configuration) (cached after the first run)")
        fflush(nil)
        let common = [
            "build", "-c", configuration, "--package-path", BenchContext.packageDirectory.path, "--scratch-path",
            scratchPath,
        ]
        let (status, output) = try execute("/usr/bin/env", ["swift"] + common + ["--product", "processor-timer"])
        guard status == 0 else {
            throw BenchError(description: "swift build -c \(configuration) failed: \(output.suffix(2000))")
        }
        let (_, binPath) = try execute("/usr/bin/env", ["swift"] + common + ["--show-bin-path"])
        let directory = binPath.trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: directory).appendingPathComponent("processor-timer")
    }

    /// Runs the timer and returns the median of the runs it reports.
    static func time(_ executable: URL, arguments: [String]) throws -> Double {
        let (status, output) = try execute(executable.path, arguments)
        guard status == 0,
            let line = output.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") })
        else {
            throw BenchError(description: "processor-timer failed (\(status)): \(output.suffix(500))")
        }
        let times = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard !times.isEmpty else { throw BenchError(description: "bad result line: \(line)") }
        return median(times)
    }

    /// Runs `executable` and returns its exit status and its standard output and error, merged.
    static func execute(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
