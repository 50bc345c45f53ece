import CacheRedis
import Foundation
import Nuke

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One execution of `nuke fetch`: starts every input at once, writes results as they finish, then reports.
struct FetchRun {
    let options: FetchOptions
    private let console = Console.shared

    init(options: FetchOptions) {
        self.options = options
    }

    /// The outcome of one input.
    private enum Outcome {
        case loaded(ImageResponse, written: URL?, warning: String? = nil)
        case failed(String)
    }

    func run() async throws -> Int32 {
        let start = monotonicSeconds()
        let directory = try options.outputDirectory.map(OutputDirectory.prepare)
        let disk = try options.cacheDirectory.map { path in
            do {
                return try PipelineFactory.openCache(at: path)
            } catch {
                throw CommandError("cannot use \(path) as a disk cache: \(error)")
            }
        }
        let redis = try options.redisURL.map(PipelineFactory.openRedis)
        let dataCache: (any DataCaching)? =
            switch (disk, redis) {
            case let (disk?, redis?): TieredDataCache(local: disk, shared: redis)
            case let (disk?, nil): disk
            case let (nil, redis?): redis
            case (nil, nil): nil
            }

        let concurrency = options.concurrency
        let httpCachePolicy = options.httpCachePolicy
        let colorProfilePolicy: ImagePipeline.ColorProfilePolicy =
            options.keepsColorProfile ? .keepOriginal : .convertToSRGB
        let pipeline = PipelineFactory.make(loader: options.loader, dataCache: dataCache) {
            $0.httpCachePolicy = httpCachePolicy
            $0.colorProfilePolicy = colorProfilePolicy
            if let concurrency { $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: concurrency) }
        }
        let claims = NameClaims()
        var outcomes: [Outcome?] = Array(repeating: nil, count: options.inputs.count)
        console.progress("starting", completed: 0, total: options.inputs.count)
        await withTaskGroup(of: (Int, Outcome).self) { group in
            for (index, input) in options.inputs.enumerated() {
                group.addTask {
                    (index, await load(input, pipeline: pipeline, directory: directory, claims: claims))
                }
            }
            var completed = 0
            for await (index, outcome) in group {
                outcomes[index] = outcome
                completed += 1
                report(options.inputs[index], outcome)
                console.progress(options.inputs[index], completed: completed, total: options.inputs.count)
            }
        }
        console.clearProgress()
        disk?.flush()
        redis?.flush()  // Writes still queued reach Redis before the process exits.
        let results = outcomes.compactMap { $0 }
        printSummary(
            results, statistics: pipeline.statistics, written: claims.count, directory: directory,
            seconds: monotonicSeconds() - start)
        if let redis {
            let statistics = redis.statistics
            console.print(
                Formatting.row(
                    "redis",
                    "\(statistics.hits) hits, \(statistics.misses) misses (\(statistics.timeouts) timeouts, "
                        + "\(statistics.unavailable) unavailable), \(statistics.writes) writes, "
                        + "\(statistics.droppedWrites) dropped"))
        }
        let failed = results.contains { if case .failed = $0 { true } else { false } }
        return failed ? ExitCode.failure : ExitCode.success
    }

    private func load(_ input: String, pipeline: ImagePipeline, directory: URL?, claims: NameClaims) async -> Outcome {
        let url: URL
        do {
            url = try Inputs.url(for: input)
        } catch {
            return .failed("\(error)")
        }
        if url.isFileURL, !FileManager.default.fileExists(atPath: url.path) {
            return .failed("no such file: \(url.path)")
        }
        let response: ImageResponse
        do {
            response = try await pipeline.imageTask(with: ImageRequest(url: url, processors: options.processors))
                .response
        } catch {
            return .failed("\(error)")
        }
        guard let directory else { return .loaded(response, written: nil) }
        let file = directory.appendingPathComponent(OutputName.make(for: url, extension: options.format.fileExtension))
        guard claims.claim(file.lastPathComponent) else { return .loaded(response, written: file) }
        let animated: Data?
        do {
            animated = try animatedOutput(response.container, colors: pipeline.configuration)
        } catch {
            return .failed("could not transcode the animation: \(error)")
        }
        guard let data = animated ?? options.format.encoder.encode(response.image) else {
            return .failed(
                "could not encode the \(response.image.width)×\(response.image.height) image as \(options.format)")
        }
        do {
            try data.write(to: file, options: .atomic)
        } catch {
            return .failed("could not write \(file.path): \(error.localizedDescription)")
        }
        let warning = animated == nil ? Self.stillFrameWarning(for: response.container) : nil
        return .loaded(response, written: file, warning: warning)
    }

    /// For `--format webp`, `avif` or `jxl` and an animated input (GIF, WebP, AVIF sequence, JPEG XL): every frame,
    /// through the same processors as the request, as an animated WebP or JPEG XL (durations and loop count kept)
    /// or an AVIF sequence (durations kept). Each frame first gets the pipeline's colour profile policy, as the
    /// pipeline gave the still: converted to sRGB, or with `--keep-profile` kept in the file's profile, which the
    /// WebP and AVIF encoders embed. `nil` for other formats and still images.
    private func animatedOutput(_ container: ImageContainer, colors: ImagePipeline.Configuration) throws -> Data? {
        guard [.webp, .avif, .jxl].contains(options.format), let data = container.data,
            let animation = try? ImageDecoders.Default.animation(for: data), animation.isAnimated
        else { return nil }
        let processors = options.processors
        let transform: (PlatformImage) throws -> PlatformImage = { frame in
            var frame = frame
            colors.applyColorProfilePolicy(to: &frame)
            return try processors.reduce(frame) { image, processor in
                guard let processed = processor.process(image) else {
                    throw CommandError("\(processor.identifier) failed on a frame")
                }
                return processed
            }
        }
        switch options.format {
        case .webp: return try ImageEncoders.WebP(quality: 0.85).encode(animation, transform: transform)
        case .jxl: return try ImageEncoders.JXL(quality: 0.85).encode(animation, transform: transform)
        default: return try ImageEncoders.AVIF(quality: 0.85).encode(animation, transform: transform)
        }
    }

    /// For an animated image written as a still: what was lost. `nil` for still images.
    private static func stillFrameWarning(for container: ImageContainer) -> String? {
        guard let data = container.data, let animation = try? ImageDecoders.Default.animation(for: data),
            animation.isAnimated
        else { return nil }
        let names: [AssetType: String] = [.gif: "GIF", .avif: "AVIF", .jxl: "JPEG XL"]
        let format = container.type.flatMap { names[$0] } ?? "WebP"
        return "animated \(format) (\(animation.frameCount) frames): only the first frame was written"
    }

    private func report(_ input: String, _ outcome: Outcome) {
        switch outcome {
        case let .loaded(response, written, warning):
            let source =
                switch response.cacheType {
                case .memory: "memory cache"
                case .disk:
                    response.isStale
                        ? "disk cache, stale"
                        : response.isRevalidated ? "disk cache, revalidated (304)" : "disk cache"
                case nil: "loaded"
                }
            let size = "\(response.image.width)×\(response.image.height)"
            console.print("ok \(input)\(written.map { " -> \($0.path)" } ?? "") (\(size), \(source))")
            if let warning { console.error("warning: \(input): \(warning)") }
        case let .failed(cause):
            console.error("error: \(input): \(cause)")
        }
    }

    private func printSummary(
        _ outcomes: [Outcome], statistics: ImagePipeline.Statistics, written: Int, directory: URL?, seconds: Double
    ) {
        var memoryHits = 0
        var diskHits = 0
        var freshHits = 0
        var errors = 0
        for outcome in outcomes {
            switch outcome {
            case let .loaded(response, _, _):
                if response.cacheType == .memory { memoryHits += 1 }
                if response.cacheType == .disk { diskHits += 1 }
                if response.cacheType == .disk, !response.isStale, !response.isRevalidated { freshHits += 1 }
            case .failed:
                errors += 1
            }
        }
        let unique = Set(options.inputs).count
        console.print("")
        console.print(Formatting.row("requests", "\(options.inputs.count) (\(unique) unique inputs)"))
        console.print(
            Formatting.row("loads", "\(statistics.dataLoadsStarted) (\(Formatting.bytes(Int(statistics.bytesLoaded))))")
        )
        console.print(Formatting.row("decodes", "\(statistics.decodes)"))
        console.print(Formatting.row("cache hits", "\(memoryHits) memory, \(diskHits) disk"))
        if options.cacheDirectory != nil || options.redisURL != nil, options.httpCachePolicy == .ignoreHeaders {
            console.print(
                Formatting.row("http cache", "headers ignored: stored data serves until evicted (--http-cache follow)"))
        } else if options.cacheDirectory != nil || options.redisURL != nil {
            console.print(
                Formatting.row(
                    "http cache",
                    "\(freshHits) fresh, \(statistics.revalidations) revalidated (304), \(statistics.refetches) "
                        + "refetched, \(statistics.staleHits) stale"))
        }
        if let directory {
            console.print(Formatting.row("written", "\(written) file\(written == 1 ? "" : "s") in \(directory.path)"))
        }
        console.print(Formatting.row("errors", "\(errors)"))
        console.print(Formatting.row("wall time", Formatting.duration(seconds)))
    }
}

/// The output names already taken in this run, so repeated inputs are encoded and written once.
final class NameClaims: @unchecked Sendable {
    // @unchecked: `names` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var names: Set<String> = []

    /// `true` for the first claim of `name`.
    func claim(_ name: String) -> Bool {
        lock.withLock { names.insert(name).inserted }
    }

    var count: Int { lock.withLock { names.count } }
}

extension ImageResponse {
    /// `true` for a disk cache entry confirmed by a `304 Not Modified`.
    var isRevalidated: Bool {
        (urlResponse as? HTTPURLResponse)?.statusCode == 304
    }
}
