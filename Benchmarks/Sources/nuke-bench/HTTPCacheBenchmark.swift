import CacheDisk
import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scenario 11, HTTP caching: what following the headers costs and saves, 200 × 50 KB through
/// `pipeline.data(for:)` with a `DataCache`.
/// - A fresh hit (stored with its HTTP metadata, `max-age` a year) against today's disk hit (the same bytes stored
///   plain, headers ignored): the cost of reading and checking the metadata. Goal ≤ 1.05×.
/// - A `304` revalidation (`Cache-Control: no-cache` from a local nginx, so every load asks) against loading the
///   same files again from that nginx with no cache, over loopback and with nginx sending at 1 MB/s per
///   connection (`limit_rate`), as a slower link would. Goal ≤ 0.5×.
struct HTTPCacheBenchmark {
    let context: BenchContext
    let section = "httpcache"
    static let fileCount = 200
    static let fileSize = 50 * 1024

    func run() async throws {
        let freshName = "200 × 50 KB: fresh disk hit, following headers"
        let revalidationName = "200 × 50 KB: 304 revalidation from local nginx"
        let slowLinkName = "200 × 50 KB: 304 revalidation, nginx at 1 MB/s per connection"
        let names = [freshName, revalidationName, slowLinkName]
        guard context.selected(section) || names.contains(where: context.selected) else { return }
        var generator = SplitMix(state: 11)
        var files: [String: Data] = [:]
        for index in 0..<Self.fileCount {
            files["h\(index).bin"] = Data((0..<Self.fileSize).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-bench-http-\(getpid())")
        try? FileManager.default.removeItem(at: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }

        if context.selected(section) || context.selected(freshName) {
            try await measureFreshHits(files: files, scratch: scratch, name: freshName)
        }
        if context.selected(section) || context.selected(revalidationName) || context.selected(slowLinkName) {
            guard BenchNginx.executable != nil else {
                context.report.add(
                    .skipped(
                        section: section, name: revalidationName, reference: "loading again",
                        reason: "nginx is missing (scripts/setup.sh --benchmarks installs nginx-light)"))
                return
            }
            if context.selected(section) || context.selected(revalidationName) {
                try await measureRevalidation(files: files, scratch: scratch, name: revalidationName)
            }
            if context.selected(section) || context.selected(slowLinkName) {
                try await measureRevalidation(
                    files: files, scratch: scratch, name: slowLinkName, rateLimit: "1m",
                    note: "a slower link (nginx limit_rate): what a 304 saves when the body costs time to send")
            }
        }
    }

    private func measureFreshHits(files: [String: Data], scratch: URL, name: String) async throws {
        // Filled by loading each file once from a loopback server that says `max-age` a year: the pipeline stores
        // what it stores for real responses (with the metadata, or plain when it ignores the headers).
        let headers = ["Cache-Control": "max-age=31536000", "ETag": "\"v1\"", "Content-Type": "application/octet-stream"]
        let server = try LoopbackHTTPServer(
            routes: files.mapValues { LoopbackHTTPServer.Route.data($0, headers: headers) }.reduce(into: [:]) {
                $0["/" + $1.key] = $1.value
            })
        defer { server.shutdown() }
        let urls = files.keys.sorted().map { server.url("/" + $0) }
        func pipeline(_ policy: ImagePipeline.HTTPCachePolicy, directory: String) async throws -> ImagePipeline {
            let cache = try DataCache(path: scratch.appendingPathComponent(directory))
            cache.sizeLimit = 1 << 30
            let filling = ImagePipeline {
                $0.dataLoader = CurlDataLoader()
                $0.dataCache = cache
                $0.imageCache = nil
                $0.httpCachePolicy = policy
            }
            for url in urls { _ = try await filling.data(for: ImageRequest(url: url)) }
            cache.flush()
            return ImagePipeline {
                $0.dataLoader = MissingDataLoader()  // Every load must be a hit.
                $0.dataCache = cache
                $0.imageCache = nil
                $0.httpCachePolicy = policy
            }
        }
        let following = try await pipeline(.followHeaders, directory: "following")
        let ignoring = try await pipeline(.ignoreHeaders, directory: "ignoring")
        let loadAll: (ImagePipeline) async throws -> Void = { pipeline in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for url in urls {
                    group.addTask { try await pipeline.data(for: ImageRequest(url: url)).0.count }
                }
                for try await count in group where count != Self.fileSize {
                    throw BenchmarkError(description: "a disk hit returned \(count) bytes")
                }
            }
        }
        let times = try await samplePaired(
            runs: context.runs, [{ try await loadAll(following) }, { try await loadAll(ignoring) }])
        guard following.statistics.dataLoadsStarted == 0, following.statistics.diskCacheHits > 0 else {
            throw BenchmarkError(description: "the fresh entries were not served from the disk cache")
        }
        context.report.add(
            BenchRow(
                section: section, name: name, reference: "disk hit with headers ignored (today's)", ours: times[0],
                theirs: times[1], goal: .atMost(1.05), note: "the cost of reading and checking the HTTP metadata"))
    }

    private func measureRevalidation(
        files: [String: Data], scratch: URL, name: String, rateLimit: String? = nil,
        note: String = "loopback: the body costs little to send, a 304 still costs one HTTP exchange"
    ) async throws {
        // Small chunks, so that nginx paces even a 50 KB body (it otherwise writes it to the socket at once).
        let limit = rateLimit.map { " limit_rate \($0); sendfile_max_chunk 8k; output_buffers 1 8k;" } ?? ""
        let nginx = try BenchNginx(files: files, serverConfig: "add_header Cache-Control \"no-cache\";" + limit)
        defer { nginx.stop() }
        let urls = files.keys.sorted().map { nginx.url($0) }
        let cache = try DataCache(path: scratch.appendingPathComponent("revalidating-\(rateLimit ?? "none")"))
        cache.sizeLimit = 1 << 30
        let revalidating = ImagePipeline {
            $0.dataLoader = CurlDataLoader()
            $0.dataCache = cache
            $0.imageCache = nil
        }
        let refetching = ImagePipeline {
            $0.dataLoader = CurlDataLoader()
            $0.dataCache = nil
            $0.imageCache = nil
        }
        let loadAll: (ImagePipeline) async throws -> Void = { pipeline in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for url in urls {
                    group.addTask { try await pipeline.data(for: ImageRequest(url: url)).0.count }
                }
                for try await count in group where count != Self.fileSize {
                    throw BenchmarkError(description: "a load returned \(count) bytes")
                }
            }
        }
        try await loadAll(revalidating)  // Stores every file with its ETag.
        cache.flush()
        let times = try await samplePaired(
            runs: context.runs, [{ try await loadAll(revalidating) }, { try await loadAll(refetching) }])
        guard revalidating.statistics.revalidations >= Self.fileCount * context.runs else {
            throw BenchmarkError(
                description: "expected every load to be a 304 revalidation: \(revalidating.statistics)")
        }
        context.report.add(
            BenchRow(
                section: section, name: name, reference: "loading it again (no cache)", ours: times[0],
                theirs: times[1], goal: .atMost(0.5), note: "Cache-Control: no-cache, so every load asks; " + note))
    }
}
