import Foundation
import NukeCore

/// Scenario 7, memory cache: `pipeline.image(for:)` on a memory hit and `pipeline.cache[request]`, against a
/// raw `Dictionary` lookup under an `NSLock` (what a hand-written cache does). Each run does `operations`
/// lookups; the table shows µs per lookup.
struct MemoryCacheBenchmark {
    let context: BenchContext
    let section = "memcache"

    func run() async throws {
        let image = try TestImages.photo(width: 64, height: 64)
        let urls = (0..<100).map { URL(string: "https://example.com/images/\($0).jpg")! }
        let requests = urls.map { ImageRequest(url: $0) }
        let pipeline = ImagePipeline {
            $0.imageCache = ImageCache()
            $0.dataCache = nil
        }
        for request in requests {
            pipeline.cache[request] = ImageContainer(image: image)
        }
        let reference = LockedDictionary()
        for url in urls {
            reference.store(image, for: url.absoluteString)
        }

        if context.selected("image(for:) memory hit") {
            let operations = 20_000
            let times = try await samplePaired(
                runs: context.runs,
                [
                    {
                        var total = 0
                        for index in 0..<operations {
                            total &+= try await pipeline.image(for: requests[index % requests.count]).width
                        }
                        guard total == operations * 64 else { throw BenchmarkError(description: "cache miss") }
                    },
                    {
                        var total = 0
                        for index in 0..<operations {
                            total &+= reference.image(for: urls[index % urls.count].absoluteString)?.width ?? 0
                        }
                        guard total == operations * 64 else { throw BenchmarkError(description: "miss") }
                    },
                ])
            context.report.add(
                perOperation(
                    "pipeline.image(for:) memory hit", times, operations: operations, goal: .atMost(4)))
        }
        if context.selected("cache[request]") {
            let operations = 200_000
            let times = try await samplePaired(
                runs: context.runs,
                [
                    {
                        var total = 0
                        for index in 0..<operations {
                            total &+= pipeline.cache[requests[index % requests.count]]?.image.width ?? 0
                        }
                        guard total == operations * 64 else { throw BenchmarkError(description: "cache miss") }
                    },
                    {
                        var total = 0
                        for index in 0..<operations {
                            total &+= reference.image(for: urls[index % urls.count].absoluteString)?.width ?? 0
                        }
                        guard total == operations * 64 else { throw BenchmarkError(description: "miss") }
                    },
                ])
            context.report.add(perOperation("pipeline.cache[request]", times, operations: operations, goal: .atMost(2)))
        }
        if context.selected("8 callers") {
            try await concurrentHits()
        }
    }

    /// A server's pattern: 2,000 requests for 200 distinct cached originals through `image(for:)` from 8 callers at
    /// once (each a task making 250 requests in turn), against the same 8 callers reading a locked dictionary.
    private func concurrentHits() async throws {
        let image = try TestImages.photo(width: 64, height: 64)
        let urls = (0..<200).map { URL(string: "https://example.com/originals/\($0).jpg")! }
        let requests = urls.map { ImageRequest(url: $0) }
        let pipeline = ImagePipeline {
            $0.imageCache = ImageCache()
            $0.dataCache = nil
        }
        let reference = LockedDictionary()
        for (request, url) in zip(requests, urls) {
            pipeline.cache[request] = ImageContainer(image: image)
            reference.store(image, for: url.absoluteString)
        }
        let callers = 8
        let perCaller = 250
        func eightCallers(_ lookup: @escaping @Sendable (Int) async throws -> Int) async throws {
            let total = try await withThrowingTaskGroup(of: Int.self) { group in
                for caller in 0..<callers {
                    group.addTask {
                        var total = 0
                        for index in 0..<perCaller {
                            total &+= try await lookup((caller * perCaller + index * 7) % 200)
                        }
                        return total
                    }
                }
                return try await group.reduce(0, +)
            }
            guard total == callers * perCaller * 64 else { throw BenchmarkError(description: "cache miss") }
        }
        let times = try await samplePaired(
            runs: context.runs,
            [
                { try await eightCallers { try await pipeline.image(for: requests[$0]).width } },
                { try await eightCallers { reference.image(for: urls[$0].absoluteString)?.width ?? 0 } },
            ])
        var row = perOperation(
            "pipeline.image(for:) memory hits, 8 callers, 200 originals", times, operations: callers * perCaller,
            goal: .info)
        row.note = String(
            format: "2,000 requests per run; %.0f k requests/s against %.0f k for the dictionary",
            1e3 / max(row.ours, 1e-9), 1e3 / max(row.theirs, 1e-9))
        context.report.add(row)
    }

    private func perOperation(_ name: String, _ times: [[Double]], operations: Int, goal: Goal) -> BenchRow {
        let perOp = { (ms: Double) in ms * 1000 / Double(operations) }
        return BenchRow(
            section: section, name: name, reference: "locked Dictionary[url.absoluteString]", unit: "µs/op",
            ours: times[0].map(perOp), theirs: times[1].map(perOp), goal: goal,
            note: "\(operations) lookups per run")
    }
}

/// The reference: a `[String: PlatformImage]` behind an `NSLock`.
final class LockedDictionary: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [String: PlatformImage] = [:]

    func store(_ image: PlatformImage, for key: String) {
        lock.lock()
        storage[key] = image
        lock.unlock()
    }

    func image(for key: String) -> PlatformImage? {
        lock.lock()
        defer { lock.unlock() }
        return storage[key]
    }
}
