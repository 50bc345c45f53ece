import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LoaderCurl
import NukeTestKit
import Testing

@Suite("CurlDataLoader requests and responses")
struct CurlDataLoaderTests {
    @Test func sequentialLoadsReuseOneKeepAliveConnection() async throws {
        // Given a server and one loader
        let server = try LoopbackHTTPServer(routes: ["/image": .data(Data("image".utf8))])
        let loader = CurlDataLoader()

        // When ten loads run one after another
        for _ in 0..<10 {
            let result = try await load(loader, server.url("/image"))
            #expect(result.succeeded)
        }

        // Then all ten requests travelled over a single connection
        let requests = server.requests(for: "/image")
        #expect(requests.count == 10)
        #expect(Set(requests.map(\.connectionID)).count == 1)
        #expect(requests.map(\.indexOnConnection) == Array(1...10))
    }

    @Test func responseCarriesFinalURLStatusHeadersAndLength() async throws {
        // Given a redirect to a resource with headers
        let body = FixturePattern.bytes(in: 0..<4321)
        let server = try LoopbackHTTPServer(routes: [
            "/old": .redirect(to: "/new", status: 301),
            "/new": .data(body, headers: ["Content-Type": "image/jpeg", "Cache-Control": "max-age=60"]),
        ])

        // When it's loaded through the redirect
        let result = try await load(CurlDataLoader(), server.url("/old"))

        // Then the response describes the final resource
        let response = try #require(result.httpResponse)
        #expect(result.data == body)
        #expect(response.url == server.url("/new"))
        #expect(response.statusCode == 200)
        #expect(response.expectedContentLength == 4321)
        #expect(response.mimeType == "image/jpeg")
        #expect(response.value(forHTTPHeaderField: "cache-control") == "max-age=60")
    }

    @Test func honoursMethodHeadersAndBody() async throws {
        // Given a request with a method, headers and a body
        let server = try LoopbackHTTPServer(routes: ["/upload": .data(Data("ok".utf8))])
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "PUT"
        request.httpBody = Data("payload bytes".utf8)
        request.setValue("token-123", forHTTPHeaderField: "Authorization")
        request.setValue("custom/agent 1.0", forHTTPHeaderField: "User-Agent")

        // When it's loaded
        let result = try await load(CurlDataLoader(), request)

        // Then the server received exactly that
        #expect(result.succeeded)
        let received = try #require(server.requests(for: "/upload").first)
        #expect(received.method == "PUT")
        #expect(received.body == Data("payload bytes".utf8))
        #expect(received.header("Authorization") == "token-123")
        #expect(received.header("User-Agent") == "custom/agent 1.0")
        #expect(received.header("Expect") == nil)
    }

    @Test func sendsTheConfiguredUserAgentAndAcceptEncoding() async throws {
        // Given the default configuration
        let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("a".utf8))])

        // When a plain request is loaded
        _ = try await load(CurlDataLoader(), server.url("/a"))

        // Then curl announces itself as Nuke and asks for compressed responses
        let received = try #require(server.requests.first)
        #expect(received.header("User-Agent")?.hasPrefix("Nuke (libcurl/") == true)
        #expect(received.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test func decodesGzipAndDeflateBodies() async throws {
        // Given compressed routes
        let text = Data(String(repeating: "svg path data ", count: 5000).utf8)
        let server = try LoopbackHTTPServer(routes: ["/gz": .gzip(text), "/deflate": .deflate(text)])
        let loader = CurlDataLoader()

        // When they're loaded
        let gzip = try await load(loader, server.url("/gz"))
        let deflate = try await load(loader, server.url("/deflate"))

        // Then the decoded bytes are delivered
        #expect(gzip.data == text)
        #expect(deflate.data == text)
    }

    @Test func withoutCompressionTheEncodedBytesAreDeliveredAsIs() async throws {
        // Given a loader that doesn't ask for or decode compressed responses
        var configuration = CurlDataLoader.Configuration()
        configuration.acceptsCompressedResponses = false
        let server = try LoopbackHTTPServer(routes: ["/gz": .gzip(Data("hello".utf8))])

        // When a gzip response arrives anyway
        let result = try await load(CurlDataLoader(configuration: configuration), server.url("/gz"))

        // Then the raw gzip stream is delivered (magic bytes 1f 8b) and no Accept-Encoding was sent
        #expect(result.data.prefix(2) == Data([0x1F, 0x8B]))
        #expect(server.requests.first?.header("Accept-Encoding") == nil)
    }

    @Test func aBodyInACodingCurlDoesNotKnowIsDeliveredAsItCame() async throws {
        // Given responses whose Content-Encoding names a coding curl can't decode, alone or after one it can
        let body = Data("bytes in a coding of their own".utf8)
        let server = try LoopbackHTTPServer(routes: [
            "/unknown": .data(body, headers: ["Content-Encoding": "x-nuke-unknown"]),
            "/stacked": .data(body, headers: ["Content-Encoding": "gzip, X-Nuke-Unknown"]),
            "/known": .gzip(body),
        ])
        let loader = CurlDataLoader()

        // When they're loaded (and a known coding after them, on the same reused handles)
        let unknown = try await load(loader, server.url("/unknown"))
        let stacked = try await load(loader, server.url("/stacked"))
        let known = try await load(loader, server.url("/known"))

        // Then the unknown ones arrive as sent, header included, instead of failing (curl error 61)
        #expect(unknown.data == body)
        #expect(
            (unknown.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding") == "x-nuke-unknown")
        #expect(stacked.data == body)
        // And a known coding is still decoded
        #expect(known.data == body)
    }

    @Test func rangeRequestsGetPartialContent() async throws {
        // Given a resource with an ETag
        let body = FixturePattern.bytes(in: 0..<10_000)
        let server = try LoopbackHTTPServer(routes: ["/photo": .resource(body, etag: "\"v1\"")])
        var request = URLRequest(url: server.url("/photo"))
        request.setValue("bytes=6000-", forHTTPHeaderField: "Range")
        request.setValue("\"v1\"", forHTTPHeaderField: "If-Range")

        // When the tail is requested
        let result = try await load(CurlDataLoader(), request)

        // Then a 206 with the remaining bytes and the validator arrives
        #expect(result.httpResponse?.statusCode == 206)
        #expect(result.httpResponse?.value(forHTTPHeaderField: "Content-Range") == "bytes 6000-9999/10000")
        #expect(result.httpResponse?.value(forHTTPHeaderField: "ETag") == "\"v1\"")
        #expect(result.data == body.subdata(in: 6000..<10_000))
    }

    @Test func explicitProxyReceivesAbsoluteFormRequests() async throws {
        // Given a loader configured to use the fixture server as its HTTP proxy
        let proxy = try LoopbackHTTPServer()
        var configuration = CurlDataLoader.Configuration()
        configuration.proxy = .url("http://127.0.0.1:\(proxy.port)")

        // When it loads a URL on a host that doesn't exist
        let result = try await load(
            CurlDataLoader(configuration: configuration), URL(string: "http://images.invalid/a.png")!)

        // Then the request went to the proxy in absolute form (which answers 404 for it)
        #expect(proxy.requests.first?.target == "http://images.invalid/a.png")
        #expect(result.curlError?.statusCode == 404)
    }

    @Test func largeBodiesArriveInBoundedChunks() async throws {
        // Given a 5 MB body and a 16 KB receive buffer
        var configuration = CurlDataLoader.Configuration()
        configuration.receiveBufferSize = 16 * 1024
        let server = try LoopbackHTTPServer(routes: ["/big": .pattern(size: 5 << 20)])

        // When it's loaded
        let result = try await load(
            CurlDataLoader(configuration: configuration), URLRequest(url: server.url("/big")),
            storage: .verifyPattern(start: 0))

        // Then it arrived intact, in chunks of at most 1 MB (reads of one loop turn are passed on together)
        #expect(result.byteCount == 5 << 20)
        #expect(result.matchesPattern)
        #expect(result.chunkCount >= 5)
        #expect(result.largestChunkSize <= 1 << 20)
    }
}
