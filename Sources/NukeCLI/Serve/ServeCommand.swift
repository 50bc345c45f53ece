import CacheRedis
import Foundation
import Nuke
import NukeServe
import ServeMicroHTTPD

/// `nuke serve`: an image service in imgproxy's URL format, on libmicrohttpd.
enum ServeCommand {
    static let summary = "Serve thumbnails over HTTP in imgproxy's URL format (signing, source policy, caches)"

    static let help = """
        USAGE: nuke serve [--port N] [--bind ADDR] [--key HEX --salt HEX]… [--allow-private-sources]
                          [--allow-source-addresses CIDR,…] [--allowed-sources PREFIX,…] [--local-root DIR]
                          [--cache-dir DIR] [--redis URL,…] [--max-source-bytes N] [--max-source-pixels N]
                          [--max-animation-frames N] [--max-redirects N] [--workers N] [--queue N] [--ttl SECONDS]
                          [--grace SECONDS] [--timeout SECONDS] [--processing-timeout SECONDS]
                          [--memory-cache MB] [--signature-size N] [--auto-jxl | --enforce-jxl]

        Answers GET and HEAD requests in imgproxy's URL format:
          /SIGNATURE/OPTIONS/plain/PERCENT-ENCODED-SOURCE[@EXT]
          /SIGNATURE/OPTIONS/BASE64URL-SOURCE[.EXT]
        with options resize|rs:TYPE:W:H:ENLARGE (fit, fill, fill-down, force, auto), size|s, width|w, height|h,
        enlarge|el, dpr, gravity|g:ce|no|so|ea|we|noea|nowe|soea|sowe[:X:Y], blur|bl:SIGMA, quality|q,
        format|f|ext (jpg, png, webp, avif, jxl), and Nuke's circle|ci:1 and rounded|rc:RADIUS. Sources are
        http(s):// URLs, or local:///PATH under --local-root. Without a format, AVIF or WebP (JPEG XL first with
        --auto-jxl) is sent when Accept names it, else the source's format (JPEG or PNG for GIF, SVG, HEIF and
        JPEG XL sources), with Vary: Accept. Embedded colour profiles are converted to sRGB, every frame of an
        animation too. Also /health and /metrics (Prometheus text). Prints "listening on http://ADDR:PORT" once it
        accepts connections, then one access-log line per request; SIGTERM or SIGINT stop accepting, let requests in
        flight finish within --grace seconds, and exit 0.

        OPTIONS (each also read from the environment variable shown; the command line wins):
          --port N                   Port to listen on (default 8080; 0 picks a free one).      NUKE_SERVE_PORT
          --bind ADDR                IPv4 or IPv6 address to listen on (default 127.0.0.1).     NUKE_SERVE_BIND
          --key HEX --salt HEX       A signing key and salt (hex), repeatable: URLs must be signed as imgproxy's
                                     (HMAC-SHA256 of salt + path, URL-safe base64). Without a key any signature
                                     (unsafe, insecure) is accepted and a warning is printed.
                                                              NUKE_SERVE_KEY, NUKE_SERVE_SALT (comma-separated)
          --signature-size N         Bytes of the digest a signature carries, 1 to 32 (default 32), as imgproxy's
                                     IMGPROXY_SIGNATURE_SIZE.                 NUKE_SERVE_SIGNATURE_SIZE
          --allow-private-sources    Allow sources on private networks (10/8, 172.16/12, 192.168/16, fc00::/7,
                                     100.64/10). Loopback, link-local, multicast and unspecified addresses stay
                                     refused, on every address connected, DNS answer and redirect hop.
                                                                        NUKE_SERVE_ALLOW_PRIVATE_SOURCES=1
          --allow-source-addresses L Allow exactly these addresses or CIDR ranges, whatever their class.
                                                                        NUKE_SERVE_ALLOW_SOURCE_ADDRESSES
          --allowed-sources L        Allow only sources under these prefixes (same scheme, host and port, path
                                     starting with the prefix's); redirects are then not followed.
                                                                        NUKE_SERVE_ALLOWED_SOURCES
          --local-root DIR           Serve local:///PATH sources from DIR (no .. or symlink escape).
                                                                        NUKE_SERVE_LOCAL_ROOT
          --memory-cache MB          Memory for the in-memory tiers (default 256): encoded results get half,
                                     processed images and sources a quarter each; 0 keeps nothing in memory.
                                                                        NUKE_SERVE_MEMORY_CACHE
          --cache-dir DIR            Keep sources (following the origin's caching headers) and results on disk in DIR.
                                                                        NUKE_SERVE_CACHE_DIR
          --redis URL,…              Share sources and results through Redis (with --cache-dir: the directory first);
                                     several servers (repeated or comma-separated) split the keys by consistent
                                     hashing.
                                                                        NUKE_SERVE_REDIS
          --max-source-bytes N       Largest source body (default 52428800): larger is 413.  NUKE_SERVE_MAX_SOURCE_BYTES
          --max-source-pixels N      Largest source image (default 50000000), checked from its header: 422.
                                                                        NUKE_SERVE_MAX_SOURCE_PIXELS
          --max-animation-frames N   Frames an animated source keeps (default 1: its first frame, as imgproxy's
                                     default). With more, a WebP, AVIF or JPEG XL result is animated, made of the
                                     first N frames; their pixels together count against --max-source-pixels (422).
                                                                        NUKE_SERVE_MAX_ANIMATION_FRAMES
          --max-redirects N          Redirects followed per source, 0 to 50 (default 10); past them, or any with
                                     --allowed-sources, the origin's 3xx is a 502.   NUKE_SERVE_MAX_REDIRECTS
          --workers N                Results made at once (default: the number of cores).    NUKE_SERVE_WORKERS
          --queue N                  Requests that may wait for a worker (default 256); more get 429.
                                                                        NUKE_SERVE_QUEUE
          --ttl SECONDS              Cache-Control max-age of results (default 31536000).    NUKE_SERVE_TTL
          --grace SECONDS            Time requests in flight get to finish on SIGTERM (default 10).
                                                                        NUKE_SERVE_GRACE
          --timeout SECONDS          Time loading and decoding a source may take (default 10): then 504; and time a
                                     request may wait for a worker: then 503.
                                                                        NUKE_SERVE_TIMEOUT
          --processing-timeout SECONDS
                                     Time processing and encoding a decoded source may take (default 10), checked
                                     before each step (each frame, the encoding): then 504.
                                                                        NUKE_SERVE_PROCESSING_TIMEOUT
          --auto-jxl                 Send JPEG XL when the URL names no format and Accept names image/jxl, before
                                     AVIF and WebP, as imgproxy's IMGPROXY_AUTO_JXL (off by default: few clients
                                     decode it; a URL can always ask for f:jxl or @jxl).  NUKE_SERVE_AUTO_JXL=1
          --enforce-jxl              As --auto-jxl, and send JPEG XL also when the URL names another format, as
                                     imgproxy's IMGPROXY_ENFORCE_JXL (Vary: Accept).    NUKE_SERVE_ENFORCE_JXL=1
          -h, --help                 Show this help.

        The exit status is 0 after a signal, 1 if the server can't start (the message names the cause), 64 for a
        wrong command line or variable.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let options: ServeOptions
        do {
            let parsed = try Arguments(arguments, flags: ServeOptions.flags, options: ServeOptions.options)
            if parsed.wantsHelp {
                Console.shared.print(help)
                return ExitCode.success
            }
            guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
            options = try ServeOptions(parsed, environment: ProcessInfo.processInfo.environment)
        } catch {
            return CLI.usageFailure(error, help: help)
        }
        do {
            return try await ServeRun(options: options).run()
        } catch {
            return CLI.failure(error)
        }
    }
}

/// One run of `nuke serve`: builds the pipeline, the service and the server, and waits for a signal.
struct ServeRun {
    let options: ServeOptions
    private let console = Console.shared

    func run() async throws -> Int32 {
        let (service, caches) = try makeService()
        var configuration = MicroHTTPDServer.Configuration()
        configuration.address = options.bind
        configuration.port = UInt16(options.port)
        let server: MicroHTTPDServer
        do {
            server = try MicroHTTPDServer(configuration: configuration, handler: service)
        } catch {
            throw CommandError("cannot listen on \(options.bind):\(options.port): \(error)")
        }
        if options.keyPairs.isEmpty {
            console.error(
                "warning: no --key/--salt: URLs are not signed, and any signature segment (unsafe, insecure) is accepted"
            )
        }
        let host = options.bind.contains(":") ? "[\(options.bind)]" : options.bind
        console.print("listening on http://\(host):\(server.port)")

        let signal = await Self.waitForTermination()
        console.error("nuke serve: \(signal) received, finishing requests in flight (up to \(options.grace) s)")
        await server.shutdown(grace: TimeInterval(options.grace))
        for cache in caches { cache() }
        return ExitCode.success
    }

    /// The service over a pipeline configured from the options, and the flushes of its caches.
    private func makeService() throws -> (ImageService, [() -> Void]) {
        let policy = SourcePolicy(
            allowedPrefixes: options.allowedSources,
            localRoot: options.localRoot.map { URL(fileURLWithPath: $0, isDirectory: true) },
            addresses: SourceAddressPolicy(
                allowsPrivateNetworks: options.allowsPrivateSources, allowedRanges: options.allowedSourceAddresses))
        if let root = policy.localRoot {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw CommandError("--local-root \(root.path) is not a directory") }
        }
        let disk = try options.cacheDirectory.map { path in
            do {
                return try PipelineFactory.openCache(at: path)
            } catch {
                throw CommandError("cannot use \(path) as a disk cache: \(error)")
            }
        }
        let redis = options.redisURLs.isEmpty ? nil : try PipelineFactory.openRedis(urls: options.redisURLs)
        // Sources in memory first, then on disk, then in Redis: results made from the same source load it once.
        let memory = options.memoryTiers
        let sourcesInMemory = memory.sources > 0 ? MemoryDataCache(costLimit: memory.sources) : nil
        let tiers: [(any DataCaching)?] = [sourcesInMemory, disk, redis]
        let present = tiers.compactMap { $0 }
        let dataCache: (any DataCaching)? = present.isEmpty ? nil : TieredDataCache(present)

        var loader = CurlDataLoader.Configuration()
        let addresses = policy.addresses
        loader.allowsConnection = { address, _ in addresses.allows(address: address) }
        // No proxy, whatever the environment says: through a proxy the filter would see only the proxy's address,
        // and the proxy would connect to any host a URL names.
        loader.proxy = .none
        // With an allow-list of source prefixes, redirects are not followed: a redirect could leave the list (an
        // open redirect on an allowed origin); the origin's 3xx is then a 502.
        loader.maximumRedirects = policy.allowedPrefixes.isEmpty ? options.maximumRedirects : 0
        let registry = Self.registry(maximumPixelCount: options.maximumSourcePixels)
        var configuration = ImagePipeline.Configuration(
            dataLoader: CurlDataLoader(configuration: loader),
            imageCache: memory.images > 0 ? ImageCache(costLimit: memory.images) : nil)
        configuration.dataCache = dataCache
        // Sources follow the origin's caching headers: a changed image is fetched again once stale.
        configuration.httpCachePolicy = .followHeaders
        configuration.maximumResponseDataSize = options.maximumSourceBytes
        configuration.makeImageDecoder = { registry.decoder(for: $0) }
        // Embedded colour profiles are converted to sRGB, as imgproxy does by default (IMGPROXY_STRIP_COLOR_PROFILE).
        configuration.colorConverter = LCMSColorConverter.shared
        configuration.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: max(6, options.workers * 2))
        let pipeline = ImagePipeline(configuration: configuration)

        var service = ImageService.Configuration(encoders: [
            .jpeg: { ImageEncoders.JPEG(quality: Float($0) / 100) },
            .png: { _ in ImageEncoders.PNG() },
            .webp: { ImageEncoders.WebP(quality: Float($0) / 100) },
            .avif: { ImageEncoders.AVIF(quality: Float($0) / 100) },
            // Effort 4, imgproxy's IMGPROXY_JXL_EFFORT default (libjxl's own, 7, is slower).
            .jxl: { ImageEncoders.JXL(quality: Float($0) / 100, effort: 4) },
        ])
        service.jxlDetection = options.jxlDetection
        service.signer =
            options.keyPairs.isEmpty
            ? nil : try URLSigner(pairs: options.keyPairs, signatureSize: options.signatureSize)
        service.sources = policy
        // Results on disk and in Redis too (not in the sources' memory tier: the service keeps results in memory
        // itself), so another instance sharing them serves a result with no load, decode or encode.
        let shared: [any DataCaching] = ([disk, redis] as [(any DataCaching)?]).compactMap { $0 }
        if !shared.isEmpty { service.resultDataCache = shared.count == 1 ? shared[0] : TieredDataCache(shared) }
        service.resultCacheCostLimit = memory.results
        service.workers = options.workers
        service.queueLimit = options.queue
        service.timeToLive = options.timeToLive
        service.sourceTimeout = TimeInterval(options.timeout)
        service.maximumQueueWait = TimeInterval(options.timeout)
        service.processingTimeout = TimeInterval(options.processingTimeout)
        service.maximumAnimationFrames = options.maximumAnimationFrames
        service.maximumAnimationPixelCount = options.maximumSourcePixels
        service.readAnimation = Self.animationReader(maximumPixelCount: options.maximumSourcePixels)
        let console = self.console
        service.log = { console.print($0) }
        let flushes: [() -> Void] = [disk.map { disk in { disk.flush() } }, redis.map { redis in { redis.flush() } }]
            .compactMap { $0 }
        return (ImageService(pipeline: pipeline, configuration: service), flushes)
    }

    /// Every codec, each refusing images of more than `maximumPixelCount` pixels from their header.
    static func registry(maximumPixelCount: Int) -> ImageDecoderRegistry {
        let registry = ImageDecoderRegistry()
        func register<Decoder: ConfigurableImageDecoding>(
            _: Decoder.Type, _ limit: WritableKeyPath<Decoder.Configuration, Int>
        ) {
            var configuration = Decoder.Configuration()
            configuration[keyPath: limit] = min(configuration[keyPath: limit], maximumPixelCount)
            Decoder.register(in: registry, configuration: configuration)
        }
        register(ImageDecoders.PNG.self, \.maximumPixelCount)
        register(ImageDecoders.JPEG.self, \.maximumPixelCount)
        register(ImageDecoders.WebP.self, \.maximumPixelCount)
        register(ImageDecoders.SVG.self, \.maximumPixelCount)
        register(ImageDecoders.GIF.self, \.maximumPixelCount)
        register(ImageDecoders.AVIF.self, \.maximumPixelCount)
        register(ImageDecoders.HEIF.self, \.maximumPixelCount)
        register(ImageDecoders.JXL.self, \.maximumPixelCount)
        return registry
    }

    /// Reads GIF, WebP, AVIF and JPEG XL animations, each frame and the canvas held to `maximumPixelCount` from the
    /// headers; WebP, AVIF and JPEG XL frames carry the file's colour profile, which the service converts.
    static func animationReader(maximumPixelCount: Int) -> @Sendable (Data) throws -> (any ImageAnimation)? {
        var gif = ImageDecoders.GIF.Configuration()
        gif.maximumPixelCount = min(gif.maximumPixelCount, maximumPixelCount)
        var webp = ImageDecoders.WebP.Configuration()
        webp.maximumPixelCount = min(webp.maximumPixelCount, maximumPixelCount)
        var avif = ImageDecoders.AVIF.Configuration()
        avif.maximumPixelCount = min(avif.maximumPixelCount, maximumPixelCount)
        var jxl = ImageDecoders.JXL.Configuration()
        jxl.maximumPixelCount = min(jxl.maximumPixelCount, maximumPixelCount)
        return { [gif, webp, avif, jxl] data in
            switch AssetType(data) {
            case .gif: try ImageDecoders.GIF.Animation(data: data, configuration: gif)
            case .webp: try ImageDecoders.WebP.Animation(data: data, configuration: webp)
            case .avif: try ImageDecoders.AVIF.Animation(data: data, configuration: avif)
            case .jxl: try ImageDecoders.JXL.Animation(data: data, configuration: jxl)
            default: nil
            }
        }
    }

    /// Waits for SIGTERM or SIGINT and returns its name.
    static func waitForTermination() async -> String {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(name) }
            source.resume()
            sources.append(source)
        }
        var iterator = stream.makeAsyncIterator()
        let name = await iterator.next() ?? "end of input"
        for source in sources { source.cancel() }
        return name
    }
}
