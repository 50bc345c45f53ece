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
        if context.selected("serve-style") {
            try await runServeStyle()
        }
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
