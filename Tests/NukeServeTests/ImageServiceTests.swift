import DecoderAVIF
import DecoderGIF
import DecoderJPEG
import DecoderJXL
import DecoderPNG
import DecoderWebP
import Foundation
import LoaderCurl
import NukeCore
import NukeServe
import NukeTestKit
import Testing

/// The service over a real pipeline (libcurl against a loopback origin, real codecs), called as a transport would.
@Suite struct ImageServiceTests {
    /// A 400×300 PNG: left half red, right half blue.
    static let source: Data = {
        var rgba: [UInt8] = []
        for _ in 0..<300 {
            for x in 0..<400 { rgba += x < 200 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        }
        // Empty if the encoder failed: every test then fails on the origin's response, naming it.
        return (try? PlatformImage(width: 400, height: 300, rgba: rgba)).flatMap { ImageEncoders.PNG().encode($0) }
            ?? Data()
    }()

    /// A memory cache that records the keys stored in it.
    final class RecordingCache: DataCaching {
        let base = MemoryDataCache(costLimit: 64 << 20)
        let keys = LockedValueBox<[String]>([])

        func cachedData(for key: String) -> Data? { base.cachedData(for: key) }
        func containsData(for key: String) -> Bool { base.containsData(for: key) }
        func storeData(_ data: Data, for key: String) {
            keys.withLock { $0.append(key) }
            base.storeData(data, for: key)
        }
        func removeData(for key: String) { base.removeData(for: key) }
        func removeAll() { base.removeAll() }
    }

    /// The loader's `allowsConnection`, boxed so that the fixture's trailing closure stays its configuration.
    struct ConnectionFilter {
        let allows: @Sendable (String, Int) -> Bool
    }

    /// An origin on 127.0.0.1 and a service allowed to reach it.
    final class Fixture: Sendable {
        let origin: LoopbackHTTPServer
        let service: ImageService
        /// The thumbnail of every decode the pipeline asked for, in order.
        let decodedThumbnails: LockedValueBox<[ImageRequest.ThumbnailOptions?]>

        init(
            routes: [String: LoopbackHTTPServer.Route] = [:],
            connectionFilter: ConnectionFilter? = nil,
            configure: (inout ImageService.Configuration) -> Void = { _ in },
            pipeline configurePipeline: (inout ImagePipeline.Configuration) -> Void = { _ in }
        ) throws {
            origin = try LoopbackHTTPServer(
                routes: [
                    "/a.png": .data(ImageServiceTests.source, headers: ["Content-Type": "image/png"]),
                    "/missing.png": .status(404), "/broken.png": .status(500),
                    "/text.png": .data(Data("not an image".utf8)), "/stall.png": .stall,
                ].merging(routes) { $1 })
            let registry = ImageDecoderRegistry()
            ImageDecoders.PNG.register(in: registry)
            ImageDecoders.JPEG.register(in: registry)
            ImageDecoders.WebP.register(in: registry)
            ImageDecoders.GIF.register(in: registry)
            ImageDecoders.AVIF.register(in: registry)
            ImageDecoders.JXL.register(in: registry)
            let decodedThumbnails = LockedValueBox<[ImageRequest.ThumbnailOptions?]>([])
            self.decodedThumbnails = decodedThumbnails
            var loader = CurlDataLoader.Configuration()
            loader.allowsConnection = connectionFilter?.allows
            let pipeline = ImagePipeline {
                $0.dataLoader = CurlDataLoader(configuration: loader)
                $0.imageCache = ImageCache()
                $0.makeImageDecoder = { context in
                    decodedThumbnails.withLock { $0.append(context.request.thumbnail) }
                    return registry.decoder(for: context)
                }
                configurePipeline(&$0)
            }
            var configuration = ImageService.Configuration(encoders: [
                .png: { _ in ImageEncoders.PNG(isFast: true) },
                .jpeg: { ImageEncoders.JPEG(quality: Float($0) / 100) },
                .webp: { ImageEncoders.WebP(quality: Float($0) / 100) },
            ])
            configuration.sources.addresses.allowedRanges = [AddressRange("127.0.0.1")!]
            configure(&configuration)
            service = ImageService(pipeline: pipeline, configuration: configuration)
        }

        deinit {
            origin.shutdown()
        }

        /// `/unsafe/<options>/plain/<origin>/<name>`.
        func path(_ options: String, _ name: String = "a.png") -> String {
            "/unsafe/\(options.isEmpty ? "" : options + "/")plain/\(origin.url("/" + name).absoluteString)"
        }

        func get(_ path: String, headers: [String: String] = [:], method: String = "GET") async -> ServeResponse {
            await service.respond(to: ServeRequest(method: method, path: path, headers: headers))
        }
    }

    static func decode(_ data: Data) throws -> PlatformImage {
        let registry = ImageDecoderRegistry()
        ImageDecoders.PNG.register(in: registry)
        ImageDecoders.JPEG.register(in: registry)
        ImageDecoders.WebP.register(in: registry)
        let context = ImageDecodingContext(request: ImageRequest(url: nil), data: data, isCompleted: true)
        return try #require(registry.decoder(for: context)).decode(data).image
    }

    @Test func fillCropsAroundTheGravityAndKeepsTheSourcesFormat() async throws {
        let fixture = try Fixture()

        let west = await fixture.get(fixture.path("rs:fill:100:100/g:we"))
        let east = await fixture.get(fixture.path("rs:fill:100:100/g:ea"))
        let fit = await fixture.get(fixture.path("rs:fit:100:100"))

        #expect(west.status == 200)
        #expect(west.header("Content-Type") == "image/png")
        #expect(west.header("Cache-Control") == "public, max-age=31536000")
        #expect(west.header("Vary") == "Accept")
        let westImage = try Self.decode(west.body)
        let eastImage = try Self.decode(east.body)
        let fitImage = try Self.decode(fit.body)
        #expect((westImage.width, westImage.height) == (100, 100))
        // Scaled to 133×100 (the source's red half is 67 wide), then 100 columns kept from the left or the right.
        #expect(westImage.pixel(x: 10, y: 50)?.r == 255 && westImage.pixel(x: 60, y: 50)?.r == 255)
        #expect(westImage.pixel(x: 95, y: 50)?.b == 255)
        #expect(eastImage.pixel(x: 10, y: 50)?.r == 255 && eastImage.pixel(x: 40, y: 50)?.b == 255)
        #expect(eastImage.pixel(x: 95, y: 50)?.b == 255)
        #expect((fitImage.width, fitImage.height) == (100, 75))
        #expect(fitImage.pixel(x: 10, y: 10)?.r == 255 && fitImage.pixel(x: 90, y: 10)?.b == 255)
    }

    @Test func aShrunkJPEGIsDecodedAtAReducedSizeToTheSameResult() async throws {
        // Given a 1600×1200 photo as a JPEG
        let photo = try #require(
            ImageEncoders.JPEG(quality: 0.95).encode(Fixtures.photoLikeImage(width: 1600, height: 1200)))
        let fixture = try Fixture(routes: ["/photo.jpg": .data(photo, headers: ["Content-Type": "image/jpeg"])])
        let full = try Self.decode(photo)

        for (options, size) in [
            ("rs:fit:300:0", (300, 225)), ("rs:fill:200:200/g:we", (200, 200)), ("rs:fill-down:0:150", (200, 150)),
            ("rs:fit:150:150/dpr:2", (300, 225)),
        ] {
            // When the service shrinks it
            let response = await fixture.get(fixture.path(options + "/q:95", "photo.jpg") + "@png")
            #expect(response.status == 200, "\(options)")
            let image = try Self.decode(response.body)

            // Then the decoder was asked for the scaled size, and the result is the one of a full-size decode
            let processor = ServeProcessor(options: try ProcessingURL(path: fixture.path(options, "photo.jpg")).options)
            #expect(fixture.decodedThumbnails.withLock { $0.last } == processor.decodingThumbnail, "\(options)")
            #expect(processor.decodingThumbnail != nil, "\(options)")
            #expect((image.width, image.height) == size, "\(options)")
            let expected = try processor.processed(full)
            #expect((ImageComparison.psnr(image, expected) ?? 0) > 32, "\(options)")
        }
    }

    @Test(arguments: [
        (
            "rs:fit:300:200",
            ImageRequest.ThumbnailOptions(size: CGSize(width: 300, height: 200), unit: .pixels, contentMode: .aspectFit)
        ),
        (
            "rs:fill:300:200/dpr:2",
            ImageRequest.ThumbnailOptions(
                size: CGSize(width: 600, height: 400), unit: .pixels, contentMode: .aspectFill)
        ),
        (
            "rs:fill:0:200",
            ImageRequest.ThumbnailOptions(size: CGSize(width: 1e9, height: 200), unit: .pixels, contentMode: .aspectFit)
        ),
        (
            "w:300",
            ImageRequest.ThumbnailOptions(size: CGSize(width: 300, height: 1e9), unit: .pixels, contentMode: .aspectFit)
        ),
        ("rs:force:300:200", nil), ("rs:auto:300:200", nil), ("dpr:2", nil), ("bl:3", nil),
    ])
    func theDecodingThumbnailOfOptions(_ options: String, _ thumbnail: ImageRequest.ThumbnailOptions?) throws {
        let url = try ProcessingURL(path: "/unsafe/\(options)/plain/http://127.0.0.1/a.png")
        #expect(ServeProcessor(options: url.options).decodingThumbnail == thumbnail)
    }

    @Test func theFormatComesFromTheURLElseFromAccept() async throws {
        let fixture = try Fixture()

        let webp = await fixture.get(fixture.path("w:80"), headers: ["Accept": "image/avif,image/webp,*/*"])
        let jpeg = await fixture.get(fixture.path("w:80") + "@jpg", headers: ["Accept": "image/webp"])
        let plain = await fixture.get(fixture.path("w:80"), headers: ["Accept": "*/*"])

        #expect(webp.header("Content-Type") == "image/webp" && webp.header("Vary") == "Accept")
        #expect(try Self.decode(webp.body).width == 80)
        #expect(jpeg.header("Content-Type") == "image/jpeg" && jpeg.header("Vary") == nil)
        #expect(try Self.decode(jpeg.body).width == 80)
        #expect(plain.header("Content-Type") == "image/png")
        #expect(webp.header("ETag") != plain.header("ETag"))
    }

    @Test func aMatchingIfNoneMatchIs304() async throws {
        let fixture = try Fixture()
        let first = await fixture.get(fixture.path("w:50"))
        let etag = try #require(first.header("ETag"))

        let again = await fixture.get(fixture.path("w:50"), headers: ["If-None-Match": etag])
        let other = await fixture.get(fixture.path("w:50"), headers: ["If-None-Match": "\"nope\""])

        #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag)
        #expect(other.status == 200 && other.body == first.body)
        #expect(fixture.origin.requests(for: "/a.png").count == 1)
    }

    @Test func signedURLsOnlyWhenAKeyIsConfigured() async throws {
        let signer = try URLSigner(pairs: [.init(hexKey: "0badc0de", hexSalt: "5a17")])
        let fixture = try Fixture { $0.signer = signer }
        let path = fixture.path("w:40")
        let signedPath = String(path.dropFirst("/unsafe".count))

        let unsigned = await fixture.get(path)
        let signed = await fixture.get("/" + signer.signature(for: signedPath) + signedPath)
        let tampered = await fixture.get(
            "/" + signer.signature(for: signedPath) + signedPath.replacingOccurrences(of: "w:40", with: "w:41"))

        #expect(unsigned.status == 403 && String(decoding: unsigned.body, as: UTF8.self) == "invalid signature\n")
        #expect(unsigned.header("X-Content-Type-Options") == "nosniff")
        #expect(unsigned.header("Cache-Control") == nil)
        #expect(signed.status == 200)
        #expect(tampered.status == 403)
    }

    @Test func eachFailureHasItsStatusAndNamesItsCause() async throws {
        let fixture = try Fixture { $0.sourceTimeout = 0.5 }
        let cases: [(String, Int, String)] = [
            (fixture.path("zoom:2"), 400, "unknown option 'zoom'"),
            (fixture.path("w:10", "missing.png"), 404, "was not found (the origin answered 404)"),
            (fixture.path("w:10", "broken.png"), 502, "the origin answered 500"),
            (fixture.path("w:10", "text.png"), 415, "not an image format the service decodes"),
            (fixture.path("w:10", "stall.png"), 504, "took longer than 0.5 s"),
            ("/unsafe/plain/http://127.0.0.2/a.png", 403, "127.0.0.2 is loopback: refused"),
            ("/unsafe/plain/file:///etc/passwd", 400, "unsupported source"),
            (fixture.path("w:10") + "@avif", 415, "no avif encoder"),
            (fixture.path("rs:fit:9000:9000:1"), 422, "over the dimension limit"),
        ]
        for (path, status, message) in cases {
            let response = await fixture.get(path)
            #expect(response.status == status, "\(path): \(String(decoding: response.body, as: UTF8.self))")
            #expect(String(decoding: response.body, as: UTF8.self).contains(message), "\(path)")
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        }
        let post = await fixture.get(fixture.path("w:10"), method: "POST")
        #expect(post.status == 405 && post.header("Allow") == "GET, HEAD")
    }

    @Test func aRedirectToARefusedAddressIs403() async throws {
        let inside = try LoopbackHTTPServer(routes: ["/secret.png": .data(Self.source)])
        defer { inside.shutdown() }
        let port = LockedValueBox(0)
        let fixture = try Fixture(
            routes: ["/hop.png": .redirect(to: inside.url("/secret.png").absoluteString)],
            connectionFilter: ConnectionFilter { _, connecting in connecting == port.withLock { $0 } })
        port.withLock { $0 = fixture.origin.port }

        let response = await fixture.get(fixture.path("w:10", "hop.png"))

        #expect(response.status == 403)
        #expect(
            // Which address, or its class, is not told: that would map what internal names resolve to.
            String(decoding: response.body, as: UTF8.self) == "the source's address is not allowed\n")
        #expect(inside.requests(for: "/secret.png").isEmpty)
    }

    @Test func aSecondServiceServesResultsFromTheSharedStoreWithNoLoadOrDecode() async throws {
        let store = MemoryDataCache(costLimit: 64 << 20)
        let first = try Fixture { $0.resultDataCache = store }
        let made = await first.get(first.path("rs:fill:50:40"), headers: ["Accept": "image/webp"])
        let second = try Fixture { $0.resultDataCache = store }

        let served = await second.get(first.path("rs:fill:50:40"), headers: ["Accept": "image/webp"])

        #expect(made.status == 200 && served.status == 200)
        #expect(served.body == made.body && served.header("ETag") == made.header("ETag"))
        #expect(served.header("Content-Type") == "image/webp" && served.header("Vary") == "Accept")
        #expect(first.origin.requests(for: "/a.png").count == 1)
        #expect(second.service.pipeline.statistics.dataLoadsStarted == 0)
        #expect(second.service.pipeline.statistics.decodes == 0)
        #expect(second.service.metricsText.contains("nuke_serve_result_cache_hits_total{tier=\"store\"} 1\n"))
    }

    @Test func storedBytesThatAreNoResultAreAMiss() async throws {
        let store = RecordingCache()
        let fixture = try Fixture { $0.resultDataCache = store }
        let path = fixture.path("w:30")
        _ = await fixture.get(path)
        let key = try #require(store.keys.withLock { $0 }.first { $0.hasPrefix("nuke-serve/result/v1/") })
        store.storeData(Data("NUKESERVE1\nwebp\nno-quotes\n1\n".utf8), for: key)
        let other = try Fixture { $0.resultDataCache = store }

        let response = await other.get(path)

        #expect(response.status == 200 && response.header("Content-Type") == "image/png")
        #expect(other.service.pipeline.statistics.decodes == 1)
    }

    @Test func identicalRequestsShareOneResult() async throws {
        let fixture = try Fixture(routes: [
            "/slow.png": .chunked([Self.source.prefix(100), Self.source.dropFirst(100)], delay: .milliseconds(300))
        ])
        let path = fixture.path("rs:fill:64:64", "slow.png")

        let responses = await withTaskGroup(of: ServeResponse.self) { group in
            for _ in 0..<12 { group.addTask { await fixture.get(path) } }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(responses.allSatisfy { $0.status == 200 && $0.body == responses[0].body })
        #expect(fixture.origin.requests(for: "/slow.png").count == 1)
        #expect(fixture.service.pipeline.statistics.decodes == 1)
        #expect(fixture.service.metricsText.contains("nuke_serve_results_made_total 1\n"))
    }

    @Test func aFullQueueIs429() async throws {
        // One worker and room for one more: a request that stalls holds the worker, a second one waits.
        let fixture = try Fixture {
            $0.workers = 1
            $0.queueLimit = 1
            $0.sourceTimeout = 1
        }
        func status(_ width: Int) async -> Int {
            await fixture.get(fixture.path("w:\(width)", "stall.png")).status
        }

        async let running = status(1)
        while fixture.origin.requests(for: "/stall.png").isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        async let waiting = status(2)
        while !fixture.service.metricsText.contains("nuke_serve_work_queue_depth 1\n") {
            try await Task.sleep(for: .milliseconds(10))
        }
        let refused = [await status(3), await status(4)]

        // Then the two beyond the queue are refused at once, and the others time out at the stalled origin.
        #expect(refused == [429, 429])
        #expect(await [running, waiting] == [504, 504])
        #expect(fixture.service.responseCount(status: 429) == 2)
    }

    @Test func aRequestThatWaitsTooLongForAWorkerIs503() async throws {
        let fixture = try Fixture {
            $0.workers = 1
            $0.queueLimit = 4
            $0.sourceTimeout = 2
            $0.maximumQueueWait = 0.3
        }

        async let running = fixture.get(fixture.path("w:1", "stall.png")).status
        while fixture.origin.requests(for: "/stall.png").isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let waited = await fixture.get(fixture.path("w:2", "stall.png"))

        #expect(waited.status == 503)
        #expect(String(decoding: waited.body, as: UTF8.self).contains("no worker was free within 0.3 s"))
        #expect(await running == 504)
        #expect(fixture.service.metricsText.contains("nuke_serve_work_queue_depth 0\n"))
    }

    @Test func healthAndMetrics() async throws {
        let fixture = try Fixture()
        _ = await fixture.get(fixture.path("w:20"))
        _ = await fixture.get(fixture.path("w:20"))
        _ = await fixture.get(fixture.path("nope:1"))

        let health = await fixture.get("/health")
        let metrics = await fixture.get("/metrics")
        let text = String(decoding: metrics.body, as: UTF8.self)

        #expect(health.status == 200 && health.body == Data("ok\n".utf8))
        #expect(metrics.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(text.contains("nuke_serve_requests_total{status=\"200\"} 3\n"))  // Two images and /health.
        #expect(text.contains("nuke_serve_requests_total{status=\"400\"} 1\n"))
        #expect(text.contains("nuke_serve_result_cache_hits_total{tier=\"memory\"} 1\n"))
        #expect(text.contains("nuke_serve_request_duration_seconds_count 4\n"))
        #expect(text.contains("nuke_serve_in_flight_requests 1\n"))  // /metrics itself.
        #expect(text.contains("nuke_serve_pipeline_events_total{event=\"data_loads\"} 1\n"))
        #expect(text.contains("nuke_serve_resident_memory_bytes "))
    }
}
