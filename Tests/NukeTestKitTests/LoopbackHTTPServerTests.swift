import Foundation
import NukeTestKit
import Testing

@Suite("LoopbackHTTPServer")
struct LoopbackHTTPServerTests {
    @Test func servesStaticBodiesAndLogsRequests() async throws {
        // Given a server with one route
        let server = try LoopbackHTTPServer(routes: ["/a.png": .data(Data("PNG!".utf8), headers: ["X-Test": "1"])])
        let client = try RawHTTPClient(port: server.port)

        // When a request with a header arrives
        client.request("/a.png?size=2", headers: ["X-Probe: yes"])
        let response = RawResponse(client.readToEnd())

        // Then the response is exact and the request is logged
        #expect(server.port > 0 && server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.headers["content-length"] == "4")
        #expect(response.headers["x-test"] == "1")
        #expect(response.body == Data("PNG!".utf8))
        let logged = try #require(server.requests.first)
        #expect(logged.method == "GET" && logged.path == "/a.png" && logged.queryItems == ["size": "2"])
        #expect(logged.header("x-probe") == "yes")
        #expect(server.statistics.requestCount == 1)
    }

    @Test func keepsConnectionsAliveAcrossRequests() async throws {
        // Given one connection
        let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("aa".utf8)), "/b": .data(Data("bbb".utf8))])
        let client = try RawHTTPClient(port: server.port)

        // When two requests are sent on it, the second asking to close
        client.request("/a", close: false)
        let first = client.read(count: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\naa".utf8.count)
        client.request("/b")
        let second = RawResponse(client.readToEnd())

        // Then both were served on the same connection, in order
        #expect(RawResponse(first).body == Data("aa".utf8))
        #expect(second.body == Data("bbb".utf8) && second.headers["connection"] == "close")
        #expect(server.requests.map(\.connectionID) == [1, 1])
        #expect(server.requests.map(\.indexOnConnection) == [1, 2])
    }

    @Test func unknownPathsGet404AndHeadGetsNoBody() async throws {
        // Given a server
        let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("body".utf8))])

        // When an unknown path and a HEAD request arrive
        let missing = try RawHTTPClient(port: server.port)
        missing.request("/nope")
        let head = try RawHTTPClient(port: server.port)
        head.request("/a", method: "HEAD")

        // Then 404 and a body-less 200 with the length
        #expect(RawResponse(missing.readToEnd()).status == 404)
        let headResponse = RawResponse(head.readToEnd())
        #expect(headResponse.status == 200 && headResponse.headers["content-length"] == "4")
        #expect(headResponse.body.isEmpty)
    }

    @Test func chunkedFramingIsExact() async throws {
        // Given a chunked route
        let server = try LoopbackHTTPServer(routes: [
            "/c": .chunked([Data("hello".utf8), Data(), Data(repeating: 0x41, count: 17)])
        ])
        let client = try RawHTTPClient(port: server.port)

        // When it's requested
        client.request("/c")
        let response = RawResponse(client.readToEnd())

        // Then the body is framed per RFC 9112 (empty chunks skipped)
        #expect(response.headers["transfer-encoding"] == "chunked")
        #expect(response.body == Data("5\r\nhello\r\n11\r\nAAAAAAAAAAAAAAAAA\r\n0\r\n\r\n".utf8))
    }

    @Test func faultRoutesMisbehaveAsScripted() async throws {
        // Given the fault routes
        let body = Data("0123456789".utf8)
        let server = try LoopbackHTTPServer(routes: [
            "/lie": .contentLengthMismatch(body: body, declaredLength: 99),
            "/drop": .drop(body, after: 4),
            "/garbage": .garbage(Data("NOT HTTP".utf8)),
        ])

        // When each is requested (asking to keep the connection open)
        func fetch(_ path: String) throws -> Data {
            let client = try RawHTTPClient(port: server.port)
            client.request(path, close: false)
            return client.readToEnd()
        }

        // Then each lies, truncates or babbles, and closes the connection
        let lie = RawResponse(try fetch("/lie"))
        #expect(lie.headers["content-length"] == "99" && lie.body == body)
        let drop = RawResponse(try fetch("/drop"))
        #expect(drop.headers["content-length"] == "10" && drop.body == Data("0123".utf8))
        #expect(try fetch("/garbage") == Data("NOT HTTP".utf8))
    }

    @Test func redirectsCarryTheirLocation() async throws {
        // Given a 307 route
        let server = try LoopbackHTTPServer(routes: ["/old": .redirect(to: "/new", status: 307)])
        let client = try RawHTTPClient(port: server.port)

        // When it's requested
        client.request("/old")
        let response = RawResponse(client.readToEnd())

        // Then the status and Location are set
        #expect(response.statusLine == "HTTP/1.1 307 Temporary Redirect")
        #expect(response.headers["location"] == "/new")
    }

    @Test func resourcesAnswerRangeRequests() async throws {
        // Given a resource with an ETag
        let body = FixturePattern.bytes(in: 0..<1000)
        let server = try LoopbackHTTPServer(routes: ["/r": .resource(body, etag: "\"v1\"")])
        func fetch(_ headers: [String]) throws -> RawResponse {
            let client = try RawHTTPClient(port: server.port)
            client.request("/r", headers: headers)
            return RawResponse(client.readToEnd())
        }

        // When full, ranged, suffix, validated, stale and unsatisfiable requests arrive
        let full = try fetch([])
        let ranged = try fetch(["Range: bytes=100-199"])
        let open = try fetch(["Range: bytes=900-", "If-Range: \"v1\""])
        let suffix = try fetch(["Range: bytes=-10"])
        let stale = try fetch(["Range: bytes=100-", "If-Range: \"v0\""])
        let unsatisfiable = try fetch(["Range: bytes=5000-"])

        // Then each gets the right status, headers and bytes
        #expect(full.status == 200 && full.body == body && full.headers["accept-ranges"] == "bytes")
        #expect(full.headers["etag"] == "\"v1\"")
        #expect(ranged.status == 206 && ranged.body == body.subdata(in: 100..<200))
        #expect(ranged.headers["content-range"] == "bytes 100-199/1000")
        #expect(open.status == 206 && open.body == body.subdata(in: 900..<1000))
        #expect(suffix.status == 206 && suffix.body == body.subdata(in: 990..<1000))
        #expect(stale.status == 200 && stale.body == body)
        #expect(unsatisfiable.status == 416 && unsatisfiable.headers["content-range"] == "bytes */1000")
        #expect(
            server.requests.map(\.range) == [
                nil, "bytes=100-199", "bytes=900-", "bytes=-10", "bytes=100-", "bytes=5000-",
            ])
    }

    @Test func resourceDropsTheFirstDownloadButNotTheResumption() async throws {
        // Given a resource that drops full downloads after 600 of 1000 bytes
        let body = FixturePattern.bytes(in: 0..<1000)
        let server = try LoopbackHTTPServer(routes: ["/r": .resource(body, etag: "\"v1\"", dropAfter: 600)])

        // When it's downloaded, then resumed
        let first = try RawHTTPClient(port: server.port)
        first.request("/r", close: false)
        let dropped = RawResponse(first.readToEnd())
        let second = try RawHTTPClient(port: server.port)
        second.request("/r", headers: ["Range: bytes=600-", "If-Range: \"v1\""])
        let resumed = RawResponse(second.readToEnd())

        // Then the first stops at 60 % and the second brings the rest
        #expect(dropped.status == 200 && dropped.headers["content-length"] == "1000")
        #expect(dropped.body == body.prefix(600))
        #expect(resumed.status == 206 && dropped.body + resumed.body == body)
    }

    @Test func encodedRoutesWrapTheBody() async throws {
        // Given gzip and deflate routes
        let server = try LoopbackHTTPServer(routes: ["/g": .gzip(Data("abc".utf8)), "/d": .deflate(Data("abc".utf8))])
        let gzipClient = try RawHTTPClient(port: server.port)
        gzipClient.request("/g")
        let deflateClient = try RawHTTPClient(port: server.port)
        deflateClient.request("/d")

        // When they're read
        let gzip = RawResponse(gzipClient.readToEnd())
        let deflate = RawResponse(deflateClient.readToEnd())

        // Then each has its encoding header and a well-formed stream around the stored bytes
        #expect(gzip.headers["content-encoding"] == "gzip")
        #expect(gzip.body.prefix(3) == Data([0x1F, 0x8B, 0x08]) && gzip.body.count == 10 + 5 + 3 + 8)
        #expect(deflate.headers["content-encoding"] == "deflate")
        #expect(deflate.body.prefix(2) == Data([0x78, 0x01]) && deflate.body.count == 2 + 5 + 3 + 4)
    }

    @Test func patternRouteServesTheRequestedSlice() async throws {
        // Given the pattern route
        let server = try LoopbackHTTPServer(routes: ["/p": .pattern()])
        let client = try RawHTTPClient(port: server.port)

        // When a slice is requested through the query
        client.request("/p?size=200000&start=777")
        let response = RawResponse(client.readToEnd())

        // Then exactly that slice of the pattern arrives
        #expect(response.headers["content-length"] == "200000")
        #expect(response.body == FixturePattern.bytes(in: 777..<200_777))
        #expect(FixturePattern.matches(response.body, at: 777))
        #expect(!FixturePattern.matches(response.body, at: 778))
    }

    @Test func handlersChooseTheRoutePerRequest() async throws {
        // Given a handler that answers by method
        let server = try LoopbackHTTPServer(routes: [
            "/h": .handler { request in request.method == "POST" ? .status(201) : .status(405) }
        ])
        let post = try RawHTTPClient(port: server.port)
        post.send("POST /h HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
        let get = try RawHTTPClient(port: server.port)
        get.request("/h")

        // Then each got its answer, and the POST body was logged
        #expect(RawResponse(post.readToEnd()).status == 201)
        #expect(RawResponse(get.readToEnd()).status == 405)
        #expect(server.requests.first { $0.method == "POST" }?.body == Data("abc".utf8))
    }

    @Test func clientsLeavingStalledResponsesAreCounted() async throws {
        // Given a stalled response
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall(afterSending: Data("ab".utf8))])
        var client: RawHTTPClient? = try RawHTTPClient(port: server.port)
        client?.request("/stall", close: false)
        _ = client?.read(count: 1)

        // When the client closes its socket
        client = nil

        // Then the server notices and closes its side
        try await server.waitUntil("the abort") { $0.abortedResponses == 1 && $0.openConnections == 0 }
    }

    @Test func shutdownEndsStalledConnectionsAndPendingWaits() async throws {
        // Given a stalled connection and a wait that can't be satisfied
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall])
        let client = try RawHTTPClient(port: server.port)
        client.request("/stall")
        try await server.waitForRequests(count: 1)
        let wait = Task { try await server.waitForRequests(count: 100, timeout: .seconds(60)) }

        // When the server shuts down
        server.shutdown()

        // Then the connection is closed, the wait fails with shutDown, and a second shutdown is harmless
        #expect(client.readToEnd().isEmpty)
        await #expect(throws: LoopbackHTTPServer.Error.self) { try await wait.value }
        server.shutdown()
        #expect(server.statistics.openConnections == 0)
    }

    @Test func waitsTimeOutWithTheStatistics() async throws {
        // Given an idle server
        let server = try LoopbackHTTPServer()

        // When a wait can't be met in time
        do {
            try await server.waitForRequests(count: 1, timeout: .milliseconds(50))
            Issue.record("the wait returned without requests")
        } catch let error as LoopbackHTTPServer.Error {
            // Then it fails describing what was awaited
            #expect(error.description.contains("1 requests"))
        }
    }

    @Test func oversizedRequestHeadsAreRejected() async throws {
        // Given a request head larger than 64 KB
        let server = try LoopbackHTTPServer()
        let client = try RawHTTPClient(port: server.port)

        // When it's sent
        client.send("GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000))

        // Then the server answers 431 and closes
        #expect(RawResponse(client.readToEnd()).status == 431)
    }
}
