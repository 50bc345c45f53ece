import CacheDisk
import DecoderPNG
import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit
import Testing

/// The default ``ImagePipeline/HTTPCachePolicy`` is Nuke's: what the disk cache holds serves until evicted, whatever
/// the server's caching headers say, with no request, also when the server can't be reached.
@Suite("The default HTTP cache policy")
struct DefaultHTTPCachePolicyTests {
    /// Two images as image hosts often serve them: one with no caching header at all, one that asks every cache to
    /// revalidate (`no-cache`), with a `Last-Modified` of now (a heuristic lifetime of zero) and an `ETag` that a
    /// conditional request is answered `304` for.
    static func makeServer() throws -> LoopbackHTTPServer {
        let png = try #require(ImageEncoders.PNG().encode(try PlatformImage(width: 9, height: 5)))
        return try LoopbackHTTPServer(routes: [
            "/plain.png": .data(png, headers: ["Content-Type": "image/png"]),
            "/no-cache.png": .handler { request in
                request.header("If-None-Match") == "\"v1\""
                    ? .data(Data(), status: 304, headers: ["ETag": "\"v1\""])
                    : .data(
                        png,
                        headers: [
                            "Content-Type": "image/png", "Cache-Control": "no-cache", "ETag": "\"v1\"",
                            "Last-Modified": HTTPDateText.now,
                        ])
            },
        ])
    }

    /// A pipeline with a fresh `DataCache` instance over `directory`, no memory cache, and `configure` applied.
    static func makePipeline(
        _ directory: URL, configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) throws -> (ImagePipeline, DataCache) {
        let dataCache = try DataCache(path: directory)
        let registry = ImageDecoderRegistry()
        ImageDecoders.PNG.register(in: registry)
        let pipeline = ImagePipeline {
            $0.dataLoader = CurlDataLoader()
            $0.dataCache = dataCache
            $0.imageCache = nil
            $0.makeImageDecoder = { registry.decoder(for: $0) }
            configure(&$0)
        }
        return (pipeline, dataCache)
    }

    /// A directory path of its own under the temporary directory (created by the `DataCache`).
    static func makeDirectoryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("default-http-cache-policy-\(UUID().uuidString)")
    }

    @Test func theDefaultIgnoresHeadersAsNukeDoes() {
        #expect(ImagePipeline.Configuration().httpCachePolicy == .ignoreHeaders)
    }

    @Test func storedImagesServeWithNoRequestAndOffline() async throws {
        // Given two images loaded once through a pipeline with a disk cache and the default policy
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let directory = Self.makeDirectoryURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let urls = ["/plain.png", "/no-cache.png"].map(server.url)
        do {
            let (pipeline, dataCache) = try Self.makePipeline(directory)
            for url in urls { _ = try await pipeline.image(for: url) }
            dataCache.flush()
        }

        // When a later pipeline over the same directory loads them with the server up, then with it gone
        let (later, _) = try Self.makePipeline(directory)
        let online = try await later.imageTask(with: ImageRequest(url: urls[1])).response
        server.shutdown()
        var offline: [ImageResponse] = []
        for url in urls { offline.append(try await later.imageTask(with: ImageRequest(url: url)).response) }

        // Then each was downloaded once, and served from the disk cache after, with no request and no error
        #expect(server.requests(for: "/plain.png").count == 1)
        #expect(server.requests(for: "/no-cache.png").count == 1)
        #expect(online.cacheType == .disk)
        #expect(offline.map(\.cacheType) == [.disk, .disk])
        #expect(offline.allSatisfy { !$0.isStale && $0.image.width == 9 && $0.image.height == 5 })
        #expect(later.statistics.dataLoadsStarted == 0)
    }

    @Test func followingHeadersIsTheOptInThatAsksTheServer() async throws {
        // Given the same images stored by a pipeline that follows the headers
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let directory = Self.makeDirectoryURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = server.url("/no-cache.png")
        let (pipeline, dataCache) = try Self.makePipeline(directory) { $0.httpCachePolicy = .followHeaders }
        _ = try await pipeline.image(for: url)
        dataCache.flush()

        // When it loads the image again with the server up, then with it gone
        let revalidated = try await pipeline.imageTask(with: ImageRequest(url: url)).response
        server.shutdown()
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: url) }

        // Then it asked the server each time: a conditional request, and a failure once it can't be reached
        #expect(revalidated.cacheType == .disk)
        #expect(server.requests(for: "/no-cache.png").last?.header("If-None-Match") == "\"v1\"")
        #expect(pipeline.statistics.revalidations == 1)
    }
}

/// `Last-Modified` values for the tests' responses.
private enum HTTPDateText {
    /// Now, in HTTP's date format.
    static var now: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date())
    }
}
