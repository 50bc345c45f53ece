import Foundation
import NukeCore

extension MemoryCacheBenchmark {
    /// The `serve`-style row: 2,000 requests for 200 distinct originals already in the memory cache, made through
    /// `pipeline.image(for:)` by 8 concurrent callers (as a server's connections do), each building its
    /// `ImageRequest` from the URL as a server does per incoming request. The reference does the same lookups in
    /// a `Dictionary` under an `NSLock` from 8 concurrent callers. A run makes the 2,000-request batch 25 times (a
    /// single batch takes under a millisecond, too short to time against scheduling noise). Reported as µs per
    /// request (wall time of the run ÷ 50,000) and as requests per second in the note.
    func runServeStyle() async throws {
        let image = try TestImages.photo(width: 64, height: 64)
        let urls = (0..<200).map { URL(string: "https://example.com/originals/\($0).jpg")! }
        let pipeline = ImagePipeline {
            $0.imageCache = ImageCache()
            $0.dataCache = nil
        }
        let reference = LockedDictionary()
        for url in urls {
            pipeline.cache[ImageRequest(url: url)] = ImageContainer(image: image)
            reference.store(image, for: url.absoluteString)
        }
        let callers = 8
        let perCaller = 250
        let batches = 25
        /// The URL caller `caller` asks for in its `step`-th request: every original, spread over the callers.
        @Sendable func url(caller: Int, step: Int) -> URL { urls[(caller * 25 + step * 7) % urls.count] }

        let times = try await samplePaired(
            runs: context.runs,
            [
                {
                    for _ in 0..<batches {
                        let total = try await withThrowingTaskGroup(of: Int.self) { group in
                            for caller in 0..<callers {
                                group.addTask {
                                    var width = 0
                                    for step in 0..<perCaller {
                                        width &+= try await pipeline.image(
                                            for: ImageRequest(url: url(caller: caller, step: step))
                                        ).width
                                    }
                                    return width
                                }
                            }
                            return try await group.reduce(0, +)
                        }
                        guard total == callers * perCaller * 64 else { throw BenchmarkError(description: "cache miss") }
                    }
                },
                {
                    for _ in 0..<batches {
                        let total = await withTaskGroup(of: Int.self) { group in
                            for caller in 0..<callers {
                                group.addTask {
                                    var width = 0
                                    for step in 0..<perCaller {
                                        width &+=
                                            reference.image(for: url(caller: caller, step: step).absoluteString)?
                                            .width ?? 0
                                    }
                                    return width
                                }
                            }
                            return await group.reduce(0, +)
                        }
                        guard total == callers * perCaller * 64 else { throw BenchmarkError(description: "miss") }
                    }
                },
            ])
        let requests = Double(callers * perCaller * batches)
        let perRequest = { (ms: Double) in ms * 1000 / requests }
        let ours = median(times[0])
        let theirs = median(times[1])
        context.report.add(
            BenchRow(
                section: section, name: "serve-style: 200 cached originals, 8 callers",
                reference: "locked Dictionary, 8 callers", unit: "µs/request", ours: times[0].map(perRequest),
                theirs: times[1].map(perRequest), goal: .info,
                note: String(
                    format: "25 × 2,000 image(for:) per run; %.0f vs %.0f requests/s", requests * 1000 / ours,
                    requests * 1000 / theirs)))
    }
}
