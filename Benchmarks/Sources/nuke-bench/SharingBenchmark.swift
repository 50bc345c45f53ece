import DecoderJPEG
import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit

/// Scenario 5, shared work: 1,000 overlapping requests over 100 URLs × 3 variants (thumbnail 256, thumbnail
/// 256 + blur, thumbnail 128), served as real JPEGs by a loopback HTTP server and loaded with
/// `CurlDataLoader`. Counts downloads (requests the server saw) and decodes, and times the whole batch, with
/// task coalescing on, off, and a naive loader that gives every request its own download + decode + resize.
struct SharingBenchmark {
    let context: BenchContext
    let section = "sharing"

    static let urlCount = 100
    static let requestCount = 1000

    /// The three variants: (thumbnail size, processors).
    static let variants: [(size: Float, processors: [any ImageProcessing])] = [
        (256, []),
        (256, [ImageProcessors.GaussianBlur(radius: 2)]),
        (128, []),
    ]

    func run() async throws {
        guard context.selected("shared work") || context.selected(section) else { return }
        let jpeg = try benchJPEG(width: 1200, height: 900)
        var routes: [String: LoopbackHTTPServer.Route] = [:]
        for index in 0..<Self.urlCount {
            routes["/photo/\(index).jpg"] = .data(jpeg, headers: ["Content-Type": "image/jpeg"])
        }
        let server = try LoopbackHTTPServer(routes: routes)
        defer { server.shutdown() }
        // Each request: a URL and a variant; every (URL, variant) pair is asked for at least three times,
        // in a shuffled order.
        var generator = SplitMix(state: 5)
        let requests = (0..<Self.requestCount).map { index in
            (url: server.url("/photo/\(index % Self.urlCount).jpg"), variant: (index / Self.urlCount) % 3)
        }.shuffled(using: &generator)
        let uniquePairs = Set(requests.map { "\($0.url)|\(Self.variants[$0.variant].size)" }).count
        let uniqueURLs = Set(requests.map(\.url)).count

        var counts: [String: [(downloads: Int, decodes: Int)]] = [:]
        let loader = CurlDataLoader()
        func measured(_ name: String, _ body: @escaping (Counter) async throws -> Void) -> () async throws -> Void {
            {
                let decodes = Counter()
                let before = server.statistics.requestCount
                try await body(decodes)
                counts[name, default: []].append((server.statistics.requestCount - before, decodes.count))
            }
        }
        // The pipeline runs: (label, coalescing, rate limiter). The rate limiter (80 loads/s after a burst of
        // 25, on by default) paces the start of loads, so it bounds every run that loads more than a few dozen
        // URLs; the rows without it isolate coalescing.
        let modes: [(label: String, coalescing: Bool, rateLimiter: Bool)] = [
            ("coalescing on (rate limiter on)", true, true),
            ("coalescing on, no rate limiter", true, false),
            ("coalescing off, no rate limiter", false, false),
        ]
        var bodies: [() async throws -> Void] = modes.map { mode in
            measured(mode.label) {
                try await Self.loadWithPipeline(
                    requests, coalescing: mode.coalescing, rateLimiter: mode.rateLimiter, decodes: $0)
            }
        }
        bodies.append(measured("naive") { try await Self.loadNaively(requests, loader: loader, decodes: $0) })
        let times = try await samplePaired(runs: context.runs, bodies)
        let naiveCounts = counts["naive"]?.last ?? (0, 0)
        let naiveNote = "naive: \(naiveCounts.downloads) downloads, \(naiveCounts.decodes) decodes"
        for (index, mode) in modes.enumerated() {
            let last = counts[mode.label]?.last ?? (0, 0)
            context.report.add(
                BenchRow(
                    section: section, name: "1,000 requests, \(mode.label): wall", reference: "naive loader",
                    ours: times[index], theirs: times[modes.count], goal: mode.coalescing ? .atMost(1.0 / 3) : .info,
                    note: "\(last.downloads) downloads, \(last.decodes) decodes; \(naiveNote)"))
            guard index != 1 else { continue }
            let downloads = counts[mode.label, default: []].map { Double($0.downloads) }
            context.report.add(
                BenchRow(
                    section: section, name: "\(mode.label): downloads", reference: "unique URLs",
                    unit: "downloads", ours: downloads,
                    theirs: downloads.map { _ in Double(uniqueURLs) }, goal: mode.coalescing ? .atMost(1) : .info))
            let decodes = counts[mode.label, default: []].map { Double($0.decodes) }
            context.report.add(
                BenchRow(
                    section: section, name: "\(mode.label): decodes", reference: "unique (URL, thumbnail)",
                    unit: "decodes", ours: decodes,
                    theirs: decodes.map { _ in Double(uniquePairs) }, goal: mode.coalescing ? .atMost(1) : .info))
        }
    }

    /// All requests at once through a fresh pipeline (fresh memory cache, no disk cache).
    static func loadWithPipeline(
        _ requests: [(url: URL, variant: Int)], coalescing: Bool, rateLimiter: Bool, decodes: Counter
    ) async throws {
        let registry = makeBenchRegistry()
        let pipeline = ImagePipeline {
            $0.dataLoader = CurlDataLoader()
            $0.imageCache = ImageCache()
            $0.dataCache = nil
            $0.isTaskCoalescingEnabled = coalescing
            $0.isRateLimiterEnabled = rateLimiter
            $0.makeImageDecoder = { context in
                registry.decoder(for: context).map { CountingDecoder(inner: $0, counter: decodes) }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in requests {
                let variant = variants[request.variant]
                var imageRequest = ImageRequest(url: request.url, processors: variant.processors)
                imageRequest.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: CGFloat(variant.size))
                group.addTask {
                    let image = try await pipeline.image(for: imageRequest)
                    guard max(image.width, image.height) == Int(variant.size) else {
                        throw BenchmarkError(description: "unexpected size \(image.width)×\(image.height)")
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The common hand-written loader: every request downloads, decodes (with the same DCT-scaled thumbnail
    /// decode), resizes and processes on its own.
    static func loadNaively(
        _ requests: [(url: URL, variant: Int)], loader: CurlDataLoader, decodes: Counter
    )
        async throws
    {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in requests {
                let variant = variants[request.variant]
                group.addTask {
                    let data = try await loadData(request.url, with: loader)
                    var imageRequest = ImageRequest(url: request.url)
                    let thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: CGFloat(variant.size))
                    imageRequest.thumbnail = thumbnail
                    guard
                        let decoder = ImageDecoders.JPEG(
                            context: ImageDecodingContext(request: imageRequest, data: data))
                    else { throw BenchmarkError(description: "no decoder") }
                    decodes.increment()
                    var image = try thumbnail.makeThumbnail(from: decoder.decode(data).image)
                    for processor in variant.processors {
                        guard let output = processor.process(image) else {
                            throw BenchmarkError(description: "processing failed")
                        }
                        image = output
                    }
                    guard max(image.width, image.height) == Int(variant.size) else {
                        throw BenchmarkError(description: "unexpected size \(image.width)×\(image.height)")
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
