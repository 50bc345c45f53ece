import Foundation
import Nuke
import NukeTestKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `nuke serve` as a real process, driven by `curl` and `ab`, with a real nginx origin and loopback servers for the
/// faults nginx can't make.
@Suite(
    "nuke serve", .serialized,
    .enabled(if: NginxServer.unavailableReason == nil, Comment(rawValue: NginxServer.unavailableReason ?? "")),
    .enabled(if: CurlClient.isAvailable, "needs the curl command (scripts/setup.sh installs it)"))
struct ServeCommandTests {
    /// A 400×300 PNG whose red channel grows from left to right.
    static let photo: Data = (try? Images.png(width: 400, height: 300)) ?? Data()

    /// A PNG whose header says 60000×60000: far over the default pixel limit, refused before any pixel is read.
    static let hugeHeader: Data = {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            func bigEndian(_ value: UInt32) -> [UInt8] {
                (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
            }
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
        }
        let side: [UInt8] = [0, 0, 0xEA, 0x60]  // 60000
        let header = side + side + [8, 6, 0, 0, 0]
        let pixels = chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + pixels + chunk("IEND", []))
    }()

    static func origin() async throws -> NginxServer {
        try await NginxServer.start(
            files: ["photo.png": photo, "huge.png": hugeHeader, "notes.png": Data("not an image".utf8)],
            locations: "location = /broken.png { return 500; }")
    }

    static func decode(_ data: Data) throws -> PlatformImage {
        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        let context = ImageDecodingContext(request: ImageRequest(url: nil), data: data, isCompleted: true)
        return try #require(registry.decoder(for: context)).decode(data).image
    }

    @Test func optionsNegotiationHeadAnd304() async throws {
        let nginx = try await Self.origin()
        let serve = try await ServeProcess(["--allow-source-addresses", "127.0.0.1"])
        let source = "plain/" + nginx.url("photo.png").absoluteString

        let west = try await CurlClient.get(serve.url("/unsafe/rs:fill:100:100/g:we/\(source)"))
        let east = try await CurlClient.get(serve.url("/unsafe/rs:fill:100:100/g:ea/\(source)"))
        let fit = try await CurlClient.get(serve.url("/unsafe/rs:fit:100:100/\(source)"))
        let jpeg = try await CurlClient.get(serve.url("/unsafe/w:50/\(source)@jpg"))
        let webp = try await CurlClient.get(serve.url("/unsafe/w:50/\(source)"), headers: ["Accept": "image/webp"])
        let head = try await CurlClient.get(serve.url("/unsafe/w:50/\(source)@jpg"), head: true)
        let revalidated = try await CurlClient.get(
            serve.url("/unsafe/w:50/\(source)@jpg"), headers: ["If-None-Match": jpeg.headers["etag"] ?? ""])
        let circle = try await CurlClient.get(serve.url("/unsafe/rs:fill:64:64/ci:1/\(source)"))

        #expect(west.status == 200 && west.headers["content-type"] == "image/png")
        #expect(west.headers["cache-control"] == "public, max-age=31536000" && west.headers["vary"] == "Accept")
        let westImage = try Self.decode(west.body)
        let eastImage = try Self.decode(east.body)
        #expect((westImage.width, westImage.height) == (100, 100))
        #expect((westImage.pixel(x: 0, y: 50)?.r ?? 255) < 20)
        #expect((eastImage.pixel(x: 99, y: 50)?.r ?? 0) > 235)
        #expect(try Self.decode(fit.body).width == 100 && Self.decode(fit.body).height == 75)
        #expect(jpeg.headers["content-type"] == "image/jpeg" && jpeg.headers["vary"] == nil)
        #expect(try Self.decode(jpeg.body).width == 50)
        #expect(webp.headers["content-type"] == "image/webp" && webp.headers["vary"] == "Accept")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-length"] == "\(jpeg.body.count)" && head.headers["etag"] == jpeg.headers["etag"])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        // The 304 announces the representation's length, not its empty body's (RFC 9110, 8.6).
        #expect(revalidated.headers["content-length"] == "\(jpeg.body.count)")
        let round = try Self.decode(circle.body)
        #expect(round.pixel(x: 0, y: 0)?.a == 0 && round.pixel(x: 32, y: 32)?.a == 255)
        #expect(try await serve.stop() == 0)
        await nginx.stopped()
        // One download for every result; the later ones revalidate (nginx's fresh Last-Modified gives no lifetime).
        let log = try nginx.accessLog().filter { $0.uri == "/photo.png" }
        #expect(log.filter { $0.status == 200 }.count == 1, "\(log)")
        #expect(log.dropFirst().allSatisfy { $0.status == 304 }, "\(log)")
    }

    @Test func signaturesFromTheReadmesPythonAreAcceptedAndTamperedOnesRefused() async throws {
        let nginx = try await Self.origin()
        let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
        let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
        let serve = try await ServeProcess(
            ["--allow-source-addresses", "127.0.0.1"], environment: ["NUKE_SERVE_KEY": key, "NUKE_SERVE_SALT": salt])
        let path = "/rs:fit:80:80/plain/" + nginx.url("photo.png").absoluteString
        let signed = try Self.pythonSigned(path, key: key, salt: salt)

        let good = try await CurlClient.get(serve.url(signed))
        let tampered = try await CurlClient.get(serve.url(signed.replacingOccurrences(of: "80:80", with: "81:81")))
        let unsigned = try await CurlClient.get(serve.url("/unsafe" + path))

        #expect(good.status == 200)
        #expect(try Self.decode(good.body).width == 80)
        #expect(tampered.status == 403 && String(decoding: tampered.body, as: UTF8.self) == "invalid signature\n")
        #expect(unsigned.status == 403)
        #expect(try await serve.stop() == 0)
        #expect(!serve.output.stderr.contains("not signed"))
    }

    /// Signs `path` with the function README's "Serving images" shows, run by Python.
    static func pythonSigned(_ path: String, key: String, salt: String) throws -> String {
        let readme = try String(
            contentsOf: NukeProcess.packageRoot().appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```python\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        let function = try #require(blocks.first { $0.contains("def signed(") })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", function + "\nimport sys\nprint(signed(sys.argv[1], sys.argv[2], sys.argv[3]))", path, key,
            salt,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func eachErrorStatusComesFromARealCause() async throws {
        let nginx = try await Self.origin()
        let loopback = try LoopbackHTTPServer(routes: [
            "/stall.png": .stall, "/big.png": .pattern(size: 200_000_000),
        ])
        defer { loopback.shutdown() }
        // An origin on 127.0.0.2 (allowed) that redirects to 127.0.0.1 (not allowed).
        let second = try LoopbackHTTPServer(
            routes: ["/hop.png": .redirect(to: nginx.url("photo.png").absoluteString)], host: .secondary)
        defer { second.shutdown() }
        let limited = try await ServeProcess([
            "--allow-source-addresses", "127.0.0.1", "--timeout", "1", "--max-source-bytes", "1000000",
        ])
        let strict = try await ServeProcess(["--allow-source-addresses", "127.0.0.2/32"])
        let unredirected = try await ServeProcess([
            "--allow-source-addresses", "127.0.0.2/32", "--max-redirects", "0",
        ])

        let cases: [(ServeProcess, String, Int, String)] = [
            (limited, "/unsafe/zoom:2/plain/" + nginx.url("photo.png").absoluteString, 400, "unknown option 'zoom'"),
            (limited, "/unsafe/w:10/plain/" + nginx.url("missing.png").absoluteString, 404, "was not found"),
            (limited, "/unsafe/w:10/plain/" + nginx.url("broken.png").absoluteString, 502, "the origin answered 500"),
            (limited, "/unsafe/w:10/plain/" + nginx.url("notes.png").absoluteString, 415, "not an image format"),
            (limited, "/unsafe/w:10/plain/" + nginx.url("huge.png").absoluteString, 422, "60000"),
            (limited, "/unsafe/w:10/plain/" + loopback.url("/big.png").absoluteString, 413, "source byte limit"),
            (limited, "/unsafe/w:10/plain/" + loopback.url("/stall.png").absoluteString, 504, "longer than 1.0 s"),
            (strict, "/unsafe/w:10/plain/" + second.url("/hop.png").absoluteString, 403, "address is not allowed"),
            (unredirected, "/unsafe/w:10/plain/" + second.url("/hop.png").absoluteString, 502, "answered 302"),
            (strict, "/unsafe/w:10/plain/" + nginx.url("photo.png").absoluteString, 403, "127.0.0.1 is loopback"),
            (strict, "/unsafe/w:10/plain/http://[::ffff:127.0.0.1]:\(nginx.http1Port)/photo.png", 403, "loopback"),
        ]
        for (serve, path, status, message) in cases {
            let response = try await CurlClient.get(serve.url(path))
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == status, "\(path): \(text)")
            #expect(text.contains(message), "\(path): \(text)")
            #expect(response.headers["cache-control"] == nil)
        }
        #expect(second.requests(for: "/hop.png").count == 2)
        #expect(try await limited.stop() == 0)
        #expect(try await strict.stop() == 0)
        #expect(try await unredirected.stop() == 0)
        await nginx.stopped()
        #expect(try nginx.accessLog().filter { $0.uri == "/photo.png" }.isEmpty, "the redirect's target got nothing")
    }

    @Test func moreOptionsGiveTheirPixels() async throws {
        let nginx = try await Self.origin()
        let serve = try await ServeProcess(["--allow-source-addresses", "127.0.0.1"])
        let source = "plain/" + nginx.url("photo.png").absoluteString
        func image(_ options: String) async throws -> PlatformImage {
            let response = try await CurlClient.get(serve.url("/unsafe/\(options)/\(source)"))
            #expect(response.status == 200, "\(options): \(String(decoding: response.body, as: UTF8.self))")
            return try Self.decode(response.body)
        }

        let dpr = try await image("rs:fit:50:50/dpr:2")
        let force = try await image("rs:force:40:90")
        let fillDown = try await image("rs:fill-down:800:200")
        let enlarged = try await image("rs:fit:800:800:1")
        let small = try await image("rs:fit:800:800")
        let sharp = try await image("w:100")
        let blurred = try await image("w:100/bl:6")
        let rounded = try await image("w:100/rc:20")

        #expect((dpr.width, dpr.height) == (100, 75))
        #expect((force.width, force.height) == (40, 90))
        #expect((fillDown.width, fillDown.height) == (400, 100))
        #expect((enlarged.width, enlarged.height) == (800, 600))
        #expect((small.width, small.height) == (400, 300))
        // The green channel grows from top to bottom: a blur moves the top row towards the rows below it.
        let sharpTop = Int(sharp.pixel(x: 50, y: 0)?.g ?? 0)
        let blurredTop = Int(blurred.pixel(x: 50, y: 0)?.g ?? 0)
        #expect(blurredTop > sharpTop + 2, "\(sharpTop) → \(blurredTop)")
        #expect(rounded.pixel(x: 0, y: 0)?.a == 0 && rounded.pixel(x: 50, y: 0)?.a == 255)
        #expect(try await serve.stop() == 0)
    }

    @Test func aDisplayP3SourceIsServedInSRGB() async throws {
        // Given an origin with the same pixels as a Display P3 PNG (a cICP chunk) and as a PNG without a profile
        var p3 = try Images.gradient(width: 24, height: 16)
        p3.colorProfile = .cicp(
            .init(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true))
        let nginx = try await NginxServer.start(
            files: [
                "p3.png": try #require(ImageEncoders.PNG().encode(p3)),
                "plain.png": try Images.png(width: 24, height: 16),
            ])
        let serve = try await ServeProcess(["--allow-source-addresses", "127.0.0.1"])

        // When both are served as PNG
        let converted = try await CurlClient.get(
            serve.url("/unsafe/plain/" + nginx.url("p3.png").absoluteString + "@png"))
        let plain = try await CurlClient.get(
            serve.url("/unsafe/plain/" + nginx.url("plain.png").absoluteString + "@png"))

        // Then the P3 one comes out converted to sRGB: no profile, other pixels than the plain one's
        #expect(converted.status == 200 && plain.status == 200)
        let convertedImage = try Self.decode(converted.body)
        let plainImage = try Self.decode(plain.body)
        #expect(convertedImage.colorProfile == nil)
        #expect(plainImage.colorProfile == nil)
        #expect(convertedImage.width == 24 && convertedImage.bytes != plainImage.bytes)
        #expect(try await serve.stop() == 0)
    }

    @Test func anAnimatedGIFKeepsItsLeadingFramesAsAnimatedWebP() async throws {
        // Pillow's chi.gif (from its source distribution): 320×240, 31 frames.
        let gif = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../DecoderGIFTests/Fixtures/pillow/chi.gif").standardized)
        let nginx = try await NginxServer.start(files: ["chi.gif": gif])
        let animated = try await ServeProcess(
            ["--allow-source-addresses", "127.0.0.1"], environment: ["NUKE_SERVE_MAX_ANIMATION_FRAMES": "6"])
        let stills = try await ServeProcess(["--allow-source-addresses", "127.0.0.1"])
        let path = "/unsafe/rs:fit:100:100/plain/" + nginx.url("chi.gif").absoluteString

        let webp = try await CurlClient.get(animated.url(path), headers: ["Accept": "image/avif;q=0,image/webp"])
        let still = try await CurlClient.get(stills.url(path), headers: ["Accept": "image/webp"])
        #expect(try await animated.stop() == 0)
        #expect(try await stills.stop() == 0)
        await nginx.stopped()

        #expect(webp.status == 200 && webp.headers["content-type"] == "image/webp" && webp.headers["vary"] == "Accept")
        let animation = try ImageDecoders.WebP.Animation(data: webp.body)
        #expect(animation.frameCount == 6 && (animation.canvasWidth, animation.canvasHeight) == (100, 75))
        #expect(still.status == 200 && still.headers["content-type"] == "image/webp")
        #expect(try ImageDecoders.WebP.Animation(data: still.body).frameCount == 1)
    }

    @Test func everyFrameOfAnAnimatedDisplayP3WebPIsServedInSRGB() async throws {
        // Given an animated WebP in Display P3 and a server that keeps 3 frames
        let (data, _) = try ColorProfileCommandTests.displayP3AnimatedWebP()
        let nginx = try await NginxServer.start(files: ["p3.webp": data])
        let serve = try await ServeProcess(
            ["--allow-source-addresses", "127.0.0.1", "--max-animation-frames", "3"])

        // When it is served as an animated WebP at quality 100
        let response = try await CurlClient.get(
            serve.url("/unsafe/q:100/plain/" + nginx.url("p3.webp").absoluteString + "@webp"))
        #expect(try await serve.stop() == 0)
        await nginx.stopped()

        // Then every frame is closer to lcms2's sRGB conversion of the source frame than to the P3 numbers, and the
        // file carries no profile
        #expect(response.status == 200 && response.headers["content-type"] == "image/webp")
        let served = try ImageDecoders.WebP.Animation(data: response.body)
        let source = try ImageDecoders.WebP.Animation(data: data)
        #expect(served.frameCount == 3 && served.colorProfile == nil)
        let converter = LCMSColorConverter()
        for index in 0..<3 {
            let original = try source.frame(at: index)
            let made = try served.frame(at: index)
            let toConverted = try #require(ImageComparison.psnr(made, try converter.convertToSRGB(original)))
            let toOriginal = try #require(ImageComparison.psnr(made, original))
            #expect(toConverted > 30 && toConverted > toOriginal + 3, "frame \(index): \(toConverted) vs \(toOriginal)")
        }
    }

    @Test func aSecondInstanceServesAResultWithNoOriginRequestAndNoDecode() async throws {
        let nginx = try await Self.origin()
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        let arguments = ["--allow-source-addresses", "127.0.0.1", "--cache-dir", cache.url.path]
        let path = "/unsafe/rs:fill:120:80/plain/" + nginx.url("photo.png").absoluteString

        let first = try await ServeProcess(arguments)
        let made = try await CurlClient.get(first.url(path), headers: ["Accept": "image/webp"])
        #expect(try await first.stop() == 0)  // Flushes the disk cache.
        let second = try await ServeProcess(arguments)
        let served = try await CurlClient.get(second.url(path), headers: ["Accept": "image/webp"])
        let metrics = String(decoding: try await CurlClient.get(second.url("/metrics")).body, as: UTF8.self)
        #expect(try await second.stop() == 0)
        await nginx.stopped()

        #expect(made.status == 200 && served.status == 200 && served.body == made.body)
        #expect(served.headers["etag"] == made.headers["etag"])
        #expect(try nginx.accessLog().filter { $0.uri == "/photo.png" }.count == 1)
        #expect(metrics.contains("nuke_serve_pipeline_events_total{event=\"decodes\"} 0\n"), "\(metrics)")
        #expect(metrics.contains("nuke_serve_pipeline_events_total{event=\"data_loads\"} 0\n"))
        #expect(metrics.contains("nuke_serve_result_cache_hits_total{tier=\"store\"} 1\n"))
    }

    @Test(.enabled(if: RedisServer.unavailableReason == nil, Comment(rawValue: RedisServer.unavailableReason ?? "")))
    func severalRedisServersSplitTheResultsAndAnotherInstanceFindsThem() async throws {
        // Given two Redis servers, and an instance that shares its results through both
        let nginx = try await Self.origin()
        let servers = [try RedisServer(), try RedisServer()]
        defer { servers.forEach { $0.stop() } }
        let arguments = [
            "--allow-source-addresses", "127.0.0.1", "--redis", servers.map(\.url).joined(separator: ","),
        ]
        let paths = (1...12).map { "/unsafe/w:\(40 + $0)/plain/" + nginx.url("photo.png").absoluteString }

        // When it makes twelve results, and a second instance with the same servers is asked for them
        let first = try await ServeProcess(arguments)
        for path in paths { #expect(try await CurlClient.get(first.url(path)).status == 200) }
        #expect(try await first.stop() == 0)  // Flushes the queued writes.
        let second = try await ServeProcess(arguments)
        for path in paths { #expect(try await CurlClient.get(second.url(path)).status == 200) }
        let metrics = String(decoding: try await CurlClient.get(second.url("/metrics")).body, as: UTF8.self)
        #expect(try await second.stop() == 0)
        await nginx.stopped()

        // Then each server holds a share of the keys (sources and results), and the second instance made none of
        // the results
        for server in servers {
            let count = try await Self.keyCount(server)
            #expect(count > 0 && count < 13, "\(count) keys")
        }
        #expect(metrics.contains("nuke_serve_result_cache_hits_total{tier=\"store\"} 12\n"), "\(metrics)")
        #expect(metrics.contains("nuke_serve_pipeline_events_total{event=\"decodes\"} 0\n"))
    }

    /// The number of keys in `server` (`redis-cli DBSIZE`).
    static func keyCount(_ server: RedisServer) async throws -> Int {
        let output = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-s", server.socketPath, "DBSIZE"]
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(Int(text), "redis-cli said \(text)")
    }

    @Test func aJPEGXLSourceIsServedAsJPEG() async throws {
        // Given a lossless JPEG XL source on the origin
        let image = Fixtures.photoLikeImage(width: 160, height: 120)
        let jxl = try #require(ImageEncoders.JXL(quality: 1).encode(image))
        let nginx = try await NginxServer.start(files: ["photo.jxl": jxl])
        let serve = try await ServeProcess(["--allow-source-addresses", "127.0.0.1"])

        // When it is asked for a thumbnail of it
        let response = try await CurlClient.get(
            serve.url("/unsafe/w:80/plain/" + nginx.url("photo.jxl").absoluteString))
        #expect(try await serve.stop() == 0)
        await nginx.stopped()

        // Then the thumbnail is a JPEG (a JPEG XL source is sent as JPEG XL only when asked for) of the planned size
        #expect(response.status == 200 && response.headers["content-type"] == "image/jpeg")
        let thumbnail = try Self.decode(response.body)
        #expect((thumbnail.width, thumbnail.height) == (80, 60))
    }

    @Test func jpegXLByTheURLAndByAcceptWithAutoJXL() async throws {
        // Given a server with --auto-jxl and one with NUKE_SERVE_ENFORCE_JXL
        let nginx = try await Self.origin()
        let auto = try await ServeProcess(["--allow-source-addresses", "127.0.0.1", "--auto-jxl"])
        let enforced = try await ServeProcess(
            ["--allow-source-addresses", "127.0.0.1"], environment: ["NUKE_SERVE_ENFORCE_JXL": "1"])
        let path = "/unsafe/w:64/plain/" + nginx.url("photo.png").absoluteString
        let accept = ["Accept": "image/jxl,image/avif,image/webp,*/*"]

        // When the URL names JPEG XL, when Accept names it, and when the URL names PNG
        let named = try await CurlClient.get(
            auto.url("/unsafe/w:64/f:jxl/plain/" + nginx.url("photo.png").absoluteString))
        let negotiated = try await CurlClient.get(auto.url(path), headers: accept)
        let png = try await CurlClient.get(auto.url(path + "@png"), headers: accept)
        let overridden = try await CurlClient.get(enforced.url(path + "@png"), headers: accept)
        #expect(try await auto.stop() == 0)
        #expect(try await enforced.stop() == 0)
        await nginx.stopped()

        // Then JPEG XL files come back (decoded by libjxl), with Vary: Accept where Accept chose them; a URL's PNG is
        // kept, unless JPEG XL is enforced
        for response in [named, negotiated, overridden] {
            #expect(response.status == 200 && response.headers["content-type"] == "image/jxl")
            #expect(try ImageDecoders.JXL().decode(response.body).image.width == 64)
        }
        #expect(named.headers["vary"] == nil)
        #expect(negotiated.headers["vary"] == "Accept" && overridden.headers["vary"] == "Accept")
        #expect(png.headers["content-type"] == "image/png" && png.headers["vary"] == nil)
    }

    @Test func theMemoryCacheHoldsResultsAndSourcesAndZeroHoldsNothing() async throws {
        // Given one instance with the default memory tiers and one with none
        let nginx = try await Self.origin()
        let cached = try await ServeProcess(["--allow-source-addresses", "127.0.0.1"])
        let uncached = try await ServeProcess(["--allow-source-addresses", "127.0.0.1", "--memory-cache", "0"])
        let source = nginx.url("photo.png").absoluteString

        // When each is asked twice for one result, then for another result of the same source
        var bodies: [[Data]] = []
        var metrics: [String] = []
        for serve in [cached, uncached] {
            var served: [Data] = []
            for options in ["w:120", "w:120", "w:90"] {
                let response = try await CurlClient.get(serve.url("/unsafe/\(options)/plain/" + source))
                #expect(response.status == 200)
                served.append(response.body)
            }
            bodies.append(served)
            metrics.append(String(decoding: try await CurlClient.get(serve.url("/metrics")).body, as: UTF8.self))
            #expect(try await serve.stop() == 0)
        }
        await nginx.stopped()

        // Then the default serves the repeat from memory and has the source in memory for the other result (only
        // revalidated: the origin sends no caching headers, and sources follow them); with 0 every request makes its
        // result from a new download. The bytes are the same.
        #expect(bodies[0] == bodies[1])
        #expect(metrics[0].contains("nuke_serve_result_cache_hits_total{tier=\"memory\"} 1\n"), "\(metrics[0])")
        // nginx sends Last-Modified, so the source may also be heuristically fresh (a tenth of its age, RFC 9111
        // 4.2.2) when the instance started slowly (sanitizers): then it is served from the source tier unasked.
        let revalidated = metrics[0].contains("nuke_serve_pipeline_events_total{event=\"revalidations\"} 1\n")
        #expect(
            revalidated
                || (metrics[0].contains("nuke_serve_pipeline_events_total{event=\"revalidations\"} 0\n")
                    && metrics[0].contains("nuke_serve_pipeline_events_total{event=\"data_loads\"} 1\n")),
            "\(metrics[0])")
        #expect(metrics[1].contains("nuke_serve_result_cache_hits_total{tier=\"memory\"} 0\n"), "\(metrics[1])")
        #expect(metrics[1].contains("nuke_serve_pipeline_events_total{event=\"data_loads\"} 3\n"))
        #expect(metrics[1].contains("nuke_serve_pipeline_events_total{event=\"revalidations\"} 0\n"))
        let statuses = try nginx.accessLog().filter { $0.uri == "/photo.png" }.map(\.status)
        #expect(statuses == (revalidated ? [200, 304, 200, 200, 200] : [200, 200, 200, 200]))
    }

    @Test func sigtermDuringASlowDownloadFinishesItAndExitsZero() async throws {
        let slow = try LoopbackHTTPServer(routes: [
            "/slow.png": .chunked(
                stride(from: 0, to: Self.photo.count, by: Self.photo.count / 4 + 1).map {
                    Self.photo[$0..<min($0 + Self.photo.count / 4 + 1, Self.photo.count)]
                }, delay: .milliseconds(400))
        ])
        defer { slow.shutdown() }
        let serve = try await ServeProcess(["--allow-source-addresses", "127.0.0.1", "--grace", "20"])

        async let response = CurlClient.get(serve.url("/unsafe/w:40/plain/" + slow.url("/slow.png").absoluteString))
        while slow.requests(for: "/slow.png").isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let status = try await serve.stop(SIGTERM)
        let finished = try await response

        #expect(finished.status == 200)
        #expect(try Self.decode(finished.body).width == 40)
        #expect(status == 0)
        #expect(serve.output.stderr.contains("SIGTERM received"))
    }

    @Test func twoThousandRequestsFromAbWithNo5xxAndFlatMemory() async throws {
        let nginx = try await Self.origin()
        let serve = try await ServeProcess(["--allow-source-addresses", "127.0.0.1"])
        let source = "plain/" + nginx.url("photo.png").absoluteString

        func ab(_ path: String) async throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ab")
            process.arguments = ["-q", "-k", "-n", "2000", "-c", "16", serve.url(path)]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        func residentBytes() async throws -> Int {
            let metrics = try await CurlClient.get(serve.url("/metrics"))
            let line = String(decoding: metrics.body, as: UTF8.self).split(separator: "\n")
                .first { $0.hasPrefix("nuke_serve_resident_memory_bytes ") }
            return line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        }

        let first = try await ab("/unsafe/rs:fill:120:90/\(source)")
        let afterFirst = try await residentBytes()
        let second = try await ab("/unsafe/rs:fill:120:90/\(source)")
        let afterSecond = try await residentBytes()

        for report in [first, second] {
            #expect(report.contains("Complete requests:      2000"), "\(report)")
            #expect(report.contains("Failed requests:        0"), "\(report)")
            #expect(!report.contains("Non-2xx responses"), "\(report)")
        }
        #expect(afterFirst > 0)
        // Under AddressSanitizer (CI's ASan step sets ASAN_OPTIONS) freed memory sits in its quarantine and RSS says
        // nothing about the program's own memory: the check is for a normal build.
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            #expect(afterSecond - afterFirst < 16 << 20, "RSS \(afterFirst) → \(afterSecond) bytes")
        }
        let metrics = String(decoding: try await CurlClient.get(serve.url("/metrics")).body, as: UTF8.self)
        #expect(metrics.contains("nuke_serve_requests_total{status=\"200\"} 4002"), "\(metrics)")
        #expect(!metrics.contains("status=\"5"))
        #expect(try await serve.stop() == 0)
    }
}
