import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LoaderCurl
import NukeTestKit
import Testing

@Suite("CurlDataLoader failures")
struct CurlFailureTests {
    @Test func nonSuccessStatusFailsWithTheStatusAndDeliversItsResponseButNoBody() async throws {
        // Given routes answering 404 (with caching headers) and 500
        let server = try LoopbackHTTPServer(routes: [
            "/missing": .data(Data("no such image".utf8), status: 404, headers: ["Cache-Control": "max-age=60"]),
            "/broken": .status(500),
        ])
        let loader = CurlDataLoader()

        // When they're loaded
        let missing = try await load(loader, server.url("/missing"))
        let broken = try await load(loader, server.url("/broken"))

        // Then each fails with its status and the URL; the response (its headers, for an HTTP cache) comes first as
        // one empty chunk, and no byte of the error page reaches didReceiveData
        #expect(missing.curlError == .unacceptableStatusCode(404, url: server.url("/missing")))
        #expect(broken.curlError?.statusCode == 500)
        #expect(missing.chunkCount == 1 && broken.chunkCount == 1)
        #expect(missing.byteCount == 0 && broken.byteCount == 0)
        #expect(missing.httpResponse?.statusCode == 404)
        #expect(missing.httpResponse?.value(forHTTPHeaderField: "Cache-Control") == "max-age=60")
        #expect(broken.httpResponse?.statusCode == 500)
        #expect(missing.violations.isEmpty && broken.violations.isEmpty)
        #expect(missing.curlError?.description.contains("404") == true)
    }

    @Test func errorResponsesKeepTheConnectionAliveUnlessTheirBodyIsLarge() async throws {
        // Given a 404 with a small body, a 500 with a 1 MB body, and a good resource
        let server = try LoopbackHTTPServer(routes: [
            "/missing": .status(404, body: Data(count: 10_000)),
            "/huge-error": .status(500, body: Data(count: 1 << 20)),
            "/ok": .data(Data("ok".utf8)),
        ])
        let loader = CurlDataLoader()

        // When they're loaded one after another
        let missing = try await load(loader, server.url("/missing"))
        let afterMissing = try await load(loader, server.url("/ok"))
        let huge = try await load(loader, server.url("/huge-error"))
        let afterHuge = try await load(loader, server.url("/ok"))

        // Then the small error body was skipped on a reused connection, the large one cut off
        #expect(missing.curlError?.statusCode == 404 && missing.byteCount == 0)
        #expect(huge.curlError?.statusCode == 500 && huge.byteCount == 0)
        #expect(afterMissing.succeeded && afterHuge.succeeded)
        let connections = server.requests.map(\.connectionID)
        #expect(connections[0] == connections[1])
        #expect(connections[2] != connections[3])
    }

    @Test(arguments: ["ftp://127.0.0.1/a.png", "file:///etc/passwd", "gopher://127.0.0.1/", "mailto:a@b.c"])
    func unsupportedSchemesFailWithoutTouchingTheNetwork(_ string: String) async throws {
        // Given a URL with a scheme other than http(s)
        let url = try #require(URL(string: string))

        // When it's loaded
        let result = try await load(CurlDataLoader(), url)

        // Then it fails as an invalid request naming the scheme
        guard case let .invalidRequest(reason, failedURL)? = result.curlError else {
            Issue.record("expected invalidRequest, got \(String(describing: result.error))")
            return
        }
        #expect(reason.contains(url.scheme ?? "?"))
        #expect(failedURL == url)
    }

    @Test(arguments: ["http://", "http:///path/only", "https://:80/x"])
    func urlsWithoutAHostFailClearly(_ string: String) async throws {
        // Given a URL without a host
        let url = try #require(URL(string: string))

        // When it's loaded
        let result = try await load(CurlDataLoader(), url)

        // Then it fails with a typed error (curl may also reject it as malformed)
        let error = try #require(result.curlError)
        switch error {
        case .invalidRequest: break
        case let .transferFailed(code, _, _): #expect(code == .malformedURL)
        case .unacceptableStatusCode, .connectionRefused: Issue.record("unexpected \(error)")
        }
    }

    @Test func redirectLimitsAndLoopsFail() async throws {
        // Given a redirect loop and a three-hop chain
        let server = try LoopbackHTTPServer(routes: [
            "/a": .redirect(to: "/b"), "/b": .redirect(to: "/a"),
            "/1": .redirect(to: "/2"), "/2": .redirect(to: "/3"), "/3": .redirect(to: "/done"),
            "/done": .data(Data("done".utf8)),
        ])
        var configuration = CurlDataLoader.Configuration()
        configuration.maximumRedirects = 2
        let loader = CurlDataLoader(configuration: configuration)

        // When both are loaded with a limit of two redirects
        let loop = try await load(loader, server.url("/a"))
        let chain = try await load(loader, server.url("/1"))

        // Then both fail with curl's "too many redirects", after a bounded number of requests
        #expect(loop.curlError?.code == .tooManyRedirects)
        #expect(chain.curlError?.code == .tooManyRedirects)
        #expect(server.requests(for: "/a").count + server.requests(for: "/b").count == 3)
    }

    @Test func redirectsAreNotFollowedWhenDisabled() async throws {
        // Given a loader that follows no redirects
        var configuration = CurlDataLoader.Configuration()
        configuration.maximumRedirects = 0
        let server = try LoopbackHTTPServer(routes: ["/moved": .redirect(to: "/here", status: 307)])

        // When a redirect arrives
        let result = try await load(CurlDataLoader(configuration: configuration), server.url("/moved"))

        // Then it's a status error and the target was never requested
        #expect(result.curlError?.statusCode == 307)
        #expect(server.requests(for: "/here").isEmpty)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/secret", "scp://127.0.0.1/x"])
    func redirectsToOtherSchemesAreRefused(_ target: String) async throws {
        // Given a redirect to a non-http(s) URL
        let server = try LoopbackHTTPServer(routes: ["/evil": .redirect(to: target)])

        // When it's followed
        let result = try await load(CurlDataLoader(), server.url("/evil"))

        // Then curl refuses the protocol and nothing is delivered
        #expect(result.curlError?.code == .unsupportedProtocol)
        #expect(result.byteCount == 0)
    }

    @Test func bodyShorterThanContentLengthFails() async throws {
        // Given a server that announces 20 000 bytes but sends 10 000 and closes
        let body = FixturePattern.bytes(in: 0..<10_000)
        let server = try LoopbackHTTPServer(routes: [
            "/lie": .contentLengthMismatch(body: body, declaredLength: 20_000),
            "/drop": .drop(body, after: 6000),
        ])
        let loader = CurlDataLoader()

        // When both are loaded
        let lie = try await load(loader, server.url("/lie"))
        let drop = try await load(loader, server.url("/drop"))

        // Then both fail as partial files, after streaming what did arrive
        #expect(lie.curlError?.code == .partialFile)
        #expect(drop.curlError?.code == .partialFile)
        #expect(lie.data == body)
        #expect(drop.data == body.prefix(6000))
    }

    @Test func bodyLongerThanContentLengthIsCutAtTheAnnouncedLength() async throws {
        // Given a server that announces 1000 bytes but sends 10 000
        let body = FixturePattern.bytes(in: 0..<10_000)
        let server = try LoopbackHTTPServer(routes: ["/lie": .contentLengthMismatch(body: body, declaredLength: 1000)])

        // When it's loaded
        let result = try await load(CurlDataLoader(), server.url("/lie"))

        // Then exactly the announced bytes are delivered
        #expect(result.succeeded)
        #expect(result.data == body.prefix(1000))
    }

    @Test func chunkedBodyCutShortFails() async throws {
        // Given a chunked response whose connection drops before the final chunk
        let server = try LoopbackHTTPServer(routes: [
            "/cut": .garbage(Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n".utf8))
        ])

        // When it's loaded
        let result = try await load(CurlDataLoader(), server.url("/cut"))

        // Then it fails after delivering the complete chunk
        #expect(result.curlError?.code != nil)
        #expect(result.data == Data("hello".utf8))
    }

    @Test(arguments: [
        Data("SSH-2.0-OpenSSH_9.2\r\n".utf8), Data([0x00, 0xFF, 0x13, 0x37]), Data("HTTP/1.1 abc\r\n\r\n".utf8),
        Data(),
    ])
    func serverThatDoesNotSpeakHTTPFails(_ garbage: Data) async throws {
        // Given a server answering with garbage (or nothing) and closing
        let server = try LoopbackHTTPServer(routes: ["/": .garbage(garbage)])

        // When it's loaded
        let result = try await load(CurlDataLoader(), server.url("/"))

        // Then it's a curl error, not a success
        #expect(result.curlError?.code != nil, "\(String(describing: result.error))")
        #expect(!result.succeeded)
    }

    @Test func connectionRefusedFailsAtOnce() async throws {
        // Given a port nobody listens on (a server that was shut down)
        let server = try LoopbackHTTPServer()
        let url = server.url("/x")
        server.shutdown()

        // When it's loaded
        let result = try await load(CurlDataLoader(), url)

        // Then curl couldn't connect
        #expect(result.curlError?.code == .couldNotConnect)
    }

    @Test func connectTimeoutAgainstAPortThatAcceptsNothing() async throws {
        // Given a listener whose accept queue is full, and a 200 ms connect timeout
        let listener = try UnacceptingListener()
        var configuration = CurlDataLoader.Configuration()
        configuration.connectTimeout = 0.2

        // When a load is attempted
        let result = try await load(
            CurlDataLoader(configuration: configuration), URL(string: "http://127.0.0.1:\(listener.port)/x")!)

        // Then it times out
        #expect(result.curlError?.isTimeout == true, "\(String(describing: result.error))")
        withExtendedLifetime(listener) {}
    }

    @Test func idleTimeoutFiresForAStalledServer() async throws {
        // Given a server that stalls after part of the body, and a 1 s request timeout
        let server = try LoopbackHTTPServer(routes: [
            "/stall": .stall(afterSending: Data(count: 500), declaredLength: 5000)
        ])
        var request = URLRequest(url: server.url("/stall"))
        request.timeoutInterval = 1

        // When it's loaded
        let result = try await load(CurlDataLoader(), request)

        // Then it fails with a timeout after streaming the prefix, and the server saw the client leave
        #expect(result.curlError?.isTimeout == true)
        #expect(result.byteCount == 500)
        try await server.waitUntil("the client to leave") { $0.abortedResponses == 1 }
    }

    @Test func totalTimeoutBoundsASlowTransfer() async throws {
        // Given a body trickling in 50 ms apart and a total timeout of 300 ms
        let chunks = (0..<40).map { _ in Data("x".utf8) }
        let server = try LoopbackHTTPServer(routes: ["/slow": .chunked(chunks, delay: .milliseconds(50))])
        var configuration = CurlDataLoader.Configuration()
        configuration.timeout = 0.3

        // When it's loaded
        let result = try await load(CurlDataLoader(configuration: configuration), server.url("/slow"))

        // Then the transfer is cut off as a timeout although data kept flowing
        #expect(result.curlError?.isTimeout == true)
        #expect(result.byteCount > 0 && result.byteCount < 40)
    }

    @Test func errorsDescribeThemselvesLikeCurl() {
        // Given errors of each kind
        let url = URL(string: "http://127.0.0.1/x")!
        let transfer = CurlError.transferFailed(code: .operationTimedOut, message: "Operation timed out", url: url)
        let status = CurlError.unacceptableStatusCode(503, url: url)
        let invalid = CurlError.invalidRequest(reason: "unsupported scheme 'ftp'", url: nil)

        // Then the descriptions carry the code, the message and the URL
        #expect(transfer.description == "curl: (28) Operation timed out (http://127.0.0.1/x)")
        #expect(status.description == "HTTP status 503 is not acceptable (http://127.0.0.1/x)")
        #expect(invalid.description == "Invalid request: unsupported scheme 'ftp'")
        #expect(transfer.isTimeout && transfer.code?.rawValue == 28 && status.statusCode == 503)
    }
}
