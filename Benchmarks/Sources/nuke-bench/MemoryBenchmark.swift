import DecoderJPEG
import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit

/// Scenario 9, memory: the peak RSS (`VmHWM`) of a process that loads 5,000 distinct 1 MP JPEGs — distinct
/// URLs (`/photo.jpg?i=N`) served by a loopback HTTP server, loaded with `CurlDataLoader`, all requested at
/// once — through a pipeline whose memory cache is limited to 64 MB. Each run is a fresh child process
/// (`nuke-bench memory-child`), so the peak is this scenario's alone. Goal: peak below limit + 150 MB.
struct MemoryBenchmark {
    static let childCommand = "memory-child"
    static let imageCount = 5000
    static let costLimit = 64 * 1024 * 1024
    let context: BenchContext
    let section = "memory"

    func run() async throws {
        guard context.selected("peak RSS") || context.selected(section) else { return }
        // All 5,000 requested at once (the worst case), and 32 at a time (a feed that keeps a window of
        // requests in flight).
        for window in [Self.imageCount, 32] {
            try measure(window: window)
        }
    }

    private func measure(window: Int) throws {
        var peaks: [Double] = []
        var notes: [String] = []
        for _ in 0..<(context.isQuick ? 3 : 5) {
            let output = try Self.runChild(window: window)
            guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") }) else {
                throw BenchmarkError(description: "the memory child printed no result: \(output.suffix(500))")
            }
            let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            guard fields.count == 5 else { throw BenchmarkError(description: "bad result line: \(line)") }
            peaks.append(fields[1])
            notes.append(
                String(
                    format: "baseline %.0f MB, %.1f s, cache %.0f MB at the end, JPEG %.0f KB", fields[0], fields[2],
                    fields[3], fields[4]))
        }
        let budget = Double(Self.costLimit) / 1_048_576 + 150
        context.report.add(
            BenchRow(
                section: section,
                name: "peak RSS, 5,000 × 1 MP JPEG, 64 MB cache, "
                    + (window >= Self.imageCount ? "all at once" : "\(window) in flight"),
                reference: "limit + 150 MB",
                unit: "MB", ours: peaks, theirs: peaks.map { _ in budget }, goal: .atMost(1),
                note: (notes.last ?? "") + "; \(peaks.count) child runs"))
    }

    private static func runChild(window: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [childCommand, String(window)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(description: "the memory child failed (\(process.terminationStatus)): \(output)")
        }
        return output
    }

    /// The child (`memory-child WINDOW`): loads the images with at most WINDOW requests in flight and prints
    /// `RESULT <baseline MB> <peak MB> <seconds> <cache MB at the end> <JPEG KB>`.
    static func runChild(arguments: [String]) async {
        let window = arguments.first.flatMap { Int($0) } ?? imageCount
        do {
            let jpeg = try benchJPEG(width: 1000, height: 1000)
            let server = try LoopbackHTTPServer(routes: [
                "/photo.jpg": .data(jpeg, headers: ["Content-Type": "image/jpeg"])
            ])
            defer { server.shutdown() }
            let baseline = peakRSS()
            let cache = ImageCache(costLimit: costLimit)
            let registry = makeBenchRegistry()
            let pipeline = ImagePipeline {
                $0.dataLoader = CurlDataLoader()
                $0.imageCache = cache
                $0.dataCache = nil
                // 5,000 loads at the default 80 a second would take a minute; memory is the subject here.
                $0.isRateLimiterEnabled = false
                $0.makeImageDecoder = { registry.decoder(for: $0) }
            }
            let start = DispatchTime.now().uptimeNanoseconds
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<imageCount {
                    if index >= window { try await group.next() }
                    let url = server.url("/photo.jpg?i=\(index)")
                    group.addTask {
                        let image = try await pipeline.image(for: url)
                        guard image.width == 1000 else { throw BenchmarkError(description: "wrong image") }
                    }
                }
                try await group.waitForAll()
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print(
                "RESULT \(baseline) \(peakRSS()) \(seconds) \(Double(cache.totalCost) / 1_048_576) \(Double(jpeg.count) / 1024)"
            )
        } catch {
            print("memory child failed: \(error)")
            exit(1)
        }
    }

    /// `VmHWM` of this process, in MB.
    static func peakRSS() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return kilobytes / 1024
    }
}
