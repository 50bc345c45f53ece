import Foundation
public import NukeCore

/// Turns requests in imgproxy's URL format into images, through an `ImagePipeline`: the service of `nuke serve`,
/// with no sockets (a transport calls ``respond(to:)``).
///
/// For each request: `GET`/`HEAD` only; `/health` and `/metrics` (Prometheus text); otherwise the path is parsed
/// (``ProcessingURL``), its signature checked (``URLSigner``), its source checked (``SourcePolicy``), and the result
/// served from memory, joined while another request makes it, or made — loaded, decoded and processed by the
/// pipeline (``ServeProcessor``; the pipeline coalesces and caches sources), encoded in the format the URL names or
/// `Accept` prefers (``FormatNegotiation``); an animated source keeps its first frames when the configuration allows
/// more than one and the format animates (``Configuration/maximumAnimationFrames``). Successful responses carry
/// `Content-Type`, `Cache-Control: public, max-age`, a strong `ETag` (``ResultETag``; `If-None-Match` gets `304`) and
/// `Vary: Accept` when `Accept` chose the format; errors are short plain-text bodies with their status
/// (``ServeError``) and no `Cache-Control`.
public final class ImageService: ServeHandler {
    /// The pipeline that loads, decodes and processes sources.
    public let pipeline: ImagePipeline
    /// The configuration.
    public let configuration: Configuration
    private let results: ResultCache
    private let gate: WorkGate
    private let metrics = ServeMetrics()
    private let available: Set<OutputFormat>

    /// Makes a service over `pipeline`.
    public init(pipeline: ImagePipeline, configuration: Configuration) {
        self.pipeline = pipeline
        self.configuration = configuration
        results = ResultCache(costLimit: configuration.resultCacheCostLimit)
        gate = WorkGate(workers: configuration.workers, queueLimit: configuration.queueLimit)
        available = Set(configuration.encoders.keys)
    }

    /// Requests answered so far with `status`.
    public func responseCount(status: Int) -> Int {
        metrics.count(status: status)
    }

    /// The metrics as Prometheus text, as `/metrics` serves them.
    public var metricsText: String {
        metrics.render(pipeline: pipeline.statistics, gate: gate.load, cache: results.usage)
    }

    public func respond(to request: ServeRequest) async -> ServeResponse {
        let start = ContinuousClock.now
        metrics.requestStarted()
        let response = await answer(request)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        metrics.requestFinished(status: response.status, seconds: seconds)
        if let log = configuration.log {
            let path = request.path.count > 300 ? request.path.prefix(300) + "…" : Substring(request.path)
            log(
                "\(request.remoteAddress ?? "-") \(request.method) \(path) \(response.status) \(response.body.count) "
                    + String(format: "%.1fms", seconds * 1000))
        }
        return response
    }

    private func answer(_ request: ServeRequest) async -> ServeResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Self.errorResponse(ServeError(.methodNotAllowed, "only GET and HEAD are allowed"))
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        switch request.path {
        case "/health":
            return ServeResponse(
                status: 200, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
                body: Data("ok\n".utf8))
        case "/metrics":
            return ServeResponse(
                status: 200,
                headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                body: Data(metricsText.utf8))
        default:
            do {
                return try await image(for: request)
            } catch {
                return Self.errorResponse(error)
            }
        }
    }

    private func image(for request: ServeRequest) async throws(ServeError) -> ServeResponse {
        let url = try ProcessingURL(path: request.path)
        if let signer = configuration.signer, !signer.isValid(url.signature, for: url.signedPath) {
            throw ServeError(.forbidden, "invalid signature")
        }
        let location = try configuration.sources.locate(url.source)
        if let format = url.options.format, !available.contains(format) {
            throw ServeError(.unsupportedFormat, "the service has no \(format.fileExtension) encoder")
        }
        let accept = request.header("accept")
        let jxl = configuration.jxlDetection
        let requested = FormatNegotiation.requested(url.options.format, accept: accept, available: available, jxl: jxl)
        let preferred = requested ?? FormatNegotiation.preferred(accept: accept, available: available, jxl: jxl)
        let processor = ServeProcessor(
            options: url.options, maximumResultDimension: configuration.maximumResultDimension)
        let key = [
            url.source, processor.options.canonicalDescription,
            "q:\(url.options.quality ?? configuration.defaultQuality)",
            requested.map { "f:\($0.rawValue)" } ?? "a:\(preferred?.rawValue ?? "source")",
        ]
        .joined(separator: "|")

        let waitLimit = configuration.maximumQueueWait
        let (outcome, source) = await results.result(for: key) {
            let outcome = await self.gate.run(waitingAtMost: waitLimit) {
                await self.obtain(key: key, url: url, location: location, processor: processor, accept: accept)
            }
            switch outcome {
            case let .ran(obtained):
                return obtained
            case .queueFull:
                return (.failure(ServeError(.tooManyRequests, "the server is busy: the work queue is full")), .made)
            case .waitedTooLong:
                return (
                    .failure(ServeError(.unavailable, "the server is busy: no worker was free within \(waitLimit) s")),
                    .made
                )
            }
        }
        metrics.resultObtained(source)
        let result = try outcome.get()

        var headers: [(name: String, value: String)] = [
            ("Content-Type", result.format.mimeType), ("Cache-Control", "public, max-age=\(configuration.timeToLive)"),
            ("ETag", result.etag),
        ]
        if result.variesByAccept { headers.append(("Vary", "Accept")) }
        if let ifNoneMatch = request.header("if-none-match"),
            ResultETag.matches(ifNoneMatch: ifNoneMatch, etag: result.etag)
        {
            // The length of the representation the 304 stands for (RFC 9110, 8.6), never its empty body's.
            return ServeResponse(
                status: 304,
                headers: headers.filter { $0.name != "Content-Type" } + [("Content-Length", "\(result.body.count)")])
        }
        return ServeResponse(status: 200, headers: headers, body: result.body)
    }

    /// The result from the shared store (``Configuration/resultDataCache``), else made and put there. The store's
    /// calls may block (a disk read, a Redis round trip): they run on a queue of their own, off the tasks' threads.
    private func obtain(
        key: String, url: ProcessingURL, location: SourcePolicy.Location, processor: ServeProcessor, accept: String?
    ) async -> (Result<ServeResult, ServeError>, ResultCache.Source) {
        guard let store = configuration.resultDataCache else {
            return (await make(url: url, location: location, processor: processor, accept: accept), .made)
        }
        let storeKey = Self.storeKey(key)
        let stored = await withCheckedContinuation { continuation in
            Self.storeQueue.async { continuation.resume(returning: store.cachedData(for: storeKey)) }
        }
        if let stored, let result = ServeResult(envelope: stored) { return (.success(result), .stored) }
        let made = await make(url: url, location: location, processor: processor, accept: accept)
        if case let .success(result) = made {
            // Stored before the response goes out, so that a request to another instance right after finds it (the
            // disk and Redis caches stage their writes and return at once).
            let envelope = result.envelope
            await withCheckedContinuation { continuation in
                Self.storeQueue.async {
                    store.storeData(envelope, for: storeKey)
                    continuation.resume()
                }
            }
        }
        return (made, .made)
    }

    /// Where the shared store's blocking calls run.
    private static let storeQueue = DispatchQueue(
        label: "com.github.kean.nuke.serve.result-store", qos: .userInitiated, attributes: .concurrent)

    /// The key of a result in the shared store: a prefix and the SHA-256 of the service's key, so keys stay short
    /// and apart from the sources' keys in the same cache.
    static func storeKey(_ key: String) -> String {
        "nuke-serve/result/v1/"
            + HMACSHA256.sha256(Array(key.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
            .joined()
    }

    /// Loads, decodes and processes the source through the pipeline, then encodes the result.
    private func make(
        url: ProcessingURL, location: SourcePolicy.Location, processor: ServeProcessor, accept: String?
    ) async -> Result<ServeResult, ServeError> {
        let sourceURL: URL =
            switch location {
            case let .remote(url): url
            case let .local(file): file
            }
        var request = ImageRequest(url: sourceURL, processors: processor.isIdentity ? [] : [processor])
        request.thumbnail = processor.decodingThumbnail
        let response: ImageResponse
        switch await load(request, source: url.source) {
        case let .success(value): response = value
        case let .failure(error): return .failure(error)
        }
        let container = response.container
        let sourceFormat = container.type.flatMap(OutputFormat.init(assetType:))
        let choice = FormatNegotiation.choose(
            requested: url.options.format, accept: accept, source: sourceFormat,
            fallback: container.image.isOpaque ? .jpeg : .png, available: available, jxl: configuration.jxlDetection)
        guard let makeEncoder = configuration.encoders[choice.format] else {
            return .failure(ServeError(.unsupportedFormat, "the service has no \(choice.format.fileExtension) encoder"))
        }
        let encoding = ResultEncoding(
            format: choice.format, encoder: makeEncoder(url.options.quality ?? configuration.defaultQuality),
            processor: processor, colors: pipeline.configuration,
            deadline: .now + .seconds(configuration.processingTimeout),
            timeout: configuration.processingTimeout)
        let content: ResultEncoding.Content
        do {
            content = try ResultEncoding.content(
                of: container, encoder: encoding.encoder, configuration: configuration, source: url.source)
        } catch {
            return .failure(error)
        }
        // Encoding (and an animation's frames) runs on a queue of its own: a codec's seconds of CPU must not hold a
        // thread of the tasks' pool, which serves every other request's awaits and timers.
        let encoded = await withCheckedContinuation { continuation in
            Self.encodingQueue.async { continuation.resume(returning: encoding.encode(content)) }
        }
        return encoded.map { body in
            let etag = ResultETag.make(
                source: url.source, options: processor.options, format: choice.format, body: body)
            return ServeResult(body: body, format: choice.format, etag: etag, variesByAccept: choice.dependsOnAccept)
        }
    }

    /// Where results are encoded; the work gate bounds how many at once.
    private static let encodingQueue = DispatchQueue(
        label: "com.github.kean.nuke.serve.encoding", qos: .userInitiated, attributes: .concurrent)

    /// The pipeline's response for `request`, or `504` once ``Configuration/sourceTimeout`` has passed (the task is
    /// cancelled then).
    private func load(_ request: ImageRequest, source: String) async -> Result<ImageResponse, ServeError> {
        let task = pipeline.imageTask(with: request)
        let timeout = configuration.sourceTimeout
        enum Outcome: Sendable {
            case loaded(Result<ImageResponse, ServeError>), timedOut, timerCancelled
        }
        return await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                do {
                    return .loaded(.success(try await task.response))
                } catch let error as ImagePipeline.Error {
                    return .loaded(.failure(ServeError(error, source: source)))
                } catch {
                    return .loaded(
                        .failure(ServeError(.internalError, "loading \(source.prefix(120)) failed: \(error)")))
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: .seconds(timeout))
                    return .timedOut
                } catch {
                    return .timerCancelled  // The request was cancelled: its load ends with the cancellation.
                }
            }
            while let outcome = await group.next() {
                switch outcome {
                case let .loaded(result):
                    group.cancelAll()
                    return result
                case .timedOut:
                    task.cancel()
                    group.cancelAll()
                    return .failure(ServeError(.timeout, "loading \(source.prefix(120)) took longer than \(timeout) s"))
                case .timerCancelled:
                    task.cancel()
                }
            }
            return .failure(ServeError(.internalError, "loading \(source.prefix(120)) ended without a result"))
        }
    }

    private static func errorResponse(_ error: ServeError) -> ServeResponse {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "text/plain; charset=utf-8"), ("X-Content-Type-Options", "nosniff"),
        ]
        if error.kind == .tooManyRequests { headers.append(("Retry-After", "1")) }
        return ServeResponse(status: error.status, headers: headers, body: Data((error.message + "\n").utf8))
    }
}

extension OutputFormat {
    /// The output format a source of `assetType` keeps when nothing else chooses one, or `nil` (then JPEG or PNG).
    /// JPEG XL sources are not kept as JPEG XL: few clients decode it, so it is sent only when the URL or, with
    /// ``ImageService/Configuration/jxlDetection``, `Accept` asks for it.
    init?(assetType: AssetType) {
        switch assetType {
        case .jpeg: self = .jpeg
        case .png: self = .png
        case .webp: self = .webp
        case .avif: self = .avif
        default: return nil
        }
    }
}
