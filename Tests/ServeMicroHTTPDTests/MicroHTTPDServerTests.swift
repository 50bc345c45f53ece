import Foundation
import LoaderCurl
import NukeServe
import NukeTestKit
import Testing

@testable import ServeMicroHTTPD

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct MicroHTTPDServerRequestTests {
    @Test func getAndHeadSendTheSameHeadersAndHeadNoBody() async throws {
        // Given a handler answering with headers and a body
        let methods = Recorder<String>()
        let server = try startServer { request in
            methods.append(request.method)
            return ServeResponse(
                status: 200,
                headers: [("Content-Type", "image/webp"), ("ETag", "\"v1\""), ("Cache-Control", "max-age=60")],
                body: Data("hello".utf8))
        }

        // When GET and HEAD ask for it
        let get = try await curl([url(server, "/image")])
        let head = try await curl(["-I", url(server, "/image")])
        let rawHead = try await exchange(
            port: server.port, request: "HEAD /image HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")

        // Then both have the same headers, with Content-Length, and only GET has the body
        #expect(get.status == 200)
        #expect(get.body == Data("hello".utf8))
        #expect(head.status == 200)
        // Nothing follows the HEAD response's head on the wire
        let rawText = String(decoding: rawHead, as: UTF8.self)
        #expect(rawText.hasPrefix("HTTP/1.1 200"))
        #expect(rawText.hasSuffix("\r\n\r\n"))
        #expect(rawText.lowercased().contains("content-length: 5\r\n"))
        for response in [get, head] {
            #expect(response.header("Content-Length") == "5")
            #expect(response.header("Content-Type") == "image/webp")
            #expect(response.header("ETag") == "\"v1\"")
            #expect(response.header("Cache-Control") == "max-age=60")
        }
        #expect(Set(methods.all) == ["GET", "HEAD"])
        await server.shutdown(grace: 1)
    }

    @Test func everyRequestFieldReachesTheHandler() async throws {
        // Given a handler that records its requests
        let requests = Recorder<ServeRequest>()
        let server = try startServer { request in
            requests.append(request)
            return ServeResponse(status: 200)
        }

        // When a request comes with an encoded path, a query and repeated headers, and another without a query
        let first = try await curl([
            "-H", "X-Repeated: one", "-H", "X-Repeated: two", "-H", "X-Single: Value",
            url(server, "/rs:fit:300/a%20b/c%2Fd.jpg?w=1&q=%20x"),
        ])
        let second = try await curl([url(server, "/plain")])

        // Then the handler sees the path as sent, the query, the joined headers and the client's address
        #expect(first.status == 200 && second.status == 200)
        let seen = requests.all
        let withQuery = try #require(seen.first { $0.path.hasPrefix("/rs:") })
        #expect(withQuery.method == "GET")
        #expect(withQuery.path == "/rs:fit:300/a%20b/c%2Fd.jpg")
        #expect(withQuery.query == "w=1&q=%20x")
        #expect(withQuery.header("X-Repeated") == "one, two")
        #expect(withQuery.headers["x-single"] == "Value")
        #expect(withQuery.header("host") == "127.0.0.1:\(server.port)")
        #expect(withQuery.remoteAddress == "127.0.0.1")
        let plain = try #require(seen.first { $0.path == "/plain" })
        #expect(plain.query == nil)
        await server.shutdown(grace: 1)
    }

    @Test func statusesAndTheirBodies() async throws {
        // Given a handler with a status per path
        let server = try startServer { request in
            switch request.path {
            case "/not-modified": ServeResponse(status: 304, headers: [("ETag", "\"v1\"")])
            case "/missing": ServeResponse(status: 404, body: Data("no such image\n".utf8))
            case "/broken": ServeResponse(status: 502, body: Data("upstream failed\n".utf8))
            case "/invalid": ServeResponse(status: 42, body: Data("never sent".utf8))
            default: ServeResponse(status: 200)
            }
        }

        // When each is requested
        let notModified = try await curl(["-H", "If-None-Match: \"v1\"", url(server, "/not-modified")])
        let missing = try await curl([url(server, "/missing")])
        let broken = try await curl([url(server, "/broken")])
        let invalid = try await curl([url(server, "/invalid")])

        // Then each arrives with its status and body; an invalid status becomes a 500
        #expect(notModified.status == 304)
        #expect(notModified.header("ETag") == "\"v1\"")
        #expect(notModified.body.isEmpty)
        #expect(missing.status == 404)
        #expect(missing.body == Data("no such image\n".utf8))
        #expect(broken.status == 502)
        #expect(broken.body == Data("upstream failed\n".utf8))
        #expect(invalid.status == 500)
        #expect(invalid.body != Data("never sent".utf8))
        await server.shutdown(grace: 1)
    }

    @Test func headersTheTransportOwnsOrRefusesAreLeftOut() async throws {
        // Given a handler that sets its own Content-Length and a value with a line break
        let server = try startServer { _ in
            ServeResponse(
                status: 200,
                headers: [
                    ("Content-Length", "999"), ("X-Injected", "a\r\nSet-Cookie: stolen=1"), ("X-Kept", "yes"),
                ],
                body: Data("four".utf8))
        }

        // When it answers
        let response = try await curl([url(server, "/")])

        // Then the length is the body's, the broken field is gone, and the others stay
        #expect(response.status == 200)
        #expect(response.headers("Content-Length") == ["4"])
        #expect(response.header("X-Injected") == nil)
        #expect(response.header("Set-Cookie") == nil)
        #expect(response.header("X-Kept") == "yes")
        #expect(response.body == Data("four".utf8))
        await server.shutdown(grace: 1)
    }

    @Test func otherMethodsAndBodiesAreRefusedBeforeTheHandler() async throws {
        // Given a handler that counts its calls
        let calls = Recorder<String>()
        let server = try startServer { request in
            calls.append(request.method)
            return ServeResponse(status: 200)
        }

        // When a POST with a body, a DELETE without one and a GET with a body arrive
        let post = try await curl(["-X", "POST", "--data-binary", "payload", url(server, "/image")])
        let delete = try await curl(["-X", "DELETE", url(server, "/image")])
        let getWithBody = try await curl(["-X", "GET", "--data-binary", "payload", url(server, "/image")])

        // Then the methods get 405 with Allow, the body 413, and the handler sees none of them
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        #expect(delete.status == 405)
        #expect(delete.header("Allow") == "GET, HEAD")
        #expect(getWithBody.status == 413)
        #expect(!getWithBody.body.isEmpty)
        #expect(calls.all.isEmpty)
        await server.shutdown(grace: 1)
    }

    @Test func aHeadLargerThanTheLimitIsRefused() async throws {
        // Given a server accepting heads up to 4 KiB
        let calls = Recorder<String>()
        let server = try startServer(configure: { $0.maximumRequestHeadBytes = 4096 }) { request in
            calls.append(request.path)
            return ServeResponse(status: 200)
        }

        // When one request has a 6 KB header and another a small one
        let large = try await curl(["-H", "X-Large: \(String(repeating: "a", count: 6000))", url(server, "/large")])
        let small = try await curl(["-H", "X-Small: a", url(server, "/small")])
        let huge = try await curl(["-H", "X-Huge: \(String(repeating: "a", count: 60_000))", url(server, "/huge")])

        // Then the large head is answered 431 without the handler
        #expect(large.status == 431)
        // Past libmicrohttpd's per-connection memory (twice the limit and 16 KiB), it answers 431 itself
        #expect(huge.status == 431)
        #expect(small.status == 200)
        #expect(calls.all == ["/small"])
        await server.shutdown(grace: 1)
    }

    @Test func aFiveMegabyteBodyArrivesWhole() async throws {
        // Given a handler answering with 5 MB of varied bytes
        let payload = Data((0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        let server = try startServer { _ in
            ServeResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: payload)
        }

        // When the workspace's curl loader fetches it
        let loader = CurlDataLoader()
        let request = URLRequest(url: try #require(URL(string: url(server, "/large"))))
        let received = Recorder<Data>()
        let statuses = Recorder<Int>()
        let error: (any Error)? = await withCheckedContinuation { continuation in
            _ = loader.loadData(
                with: request,
                didReceiveData: { data, response in
                    received.append(data)
                    statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0)
                },
                completion: { continuation.resume(returning: $0) })
        }

        // Then every byte arrives
        #expect(error == nil)
        #expect(statuses.all.first == 200)
        #expect(received.all.reduce(into: Data()) { $0.append($1) } == payload)
        await server.shutdown(grace: 1)
    }

    @Test func aSlowHandlersResponseArrives() async throws {
        // Given a handler that takes over a second
        let server = try startServer(workerThreads: 1) { _ in
            try? await Task.sleep(nanoseconds: 1_200_000_000)
            return ServeResponse(status: 200, body: Data("slow but sure".utf8))
        }

        // When it is asked
        let response = try await curl([url(server, "/slow")])

        // Then its response arrives
        #expect(response.status == 200)
        #expect(response.body == Data("slow but sure".utf8))
        await server.shutdown(grace: 1)
    }

    @Test func keepAliveReusesTheConnection() async throws {
        // Given a server
        let server = try startServer { request in ServeResponse(status: 200, body: Data(request.path.utf8)) }

        // When curl fetches two URLs in one run
        let response = try await curl(["-w", "%{num_connects}\n", url(server, "/one"), url(server, "/two")])

        // Then the second request goes over the first one's connection
        #expect(response.exitCode == 0)
        #expect(response.output.split(separator: "\n") == ["1", "0"])
        #expect(response.body == Data("/one/two".utf8))
        await server.shutdown(grace: 1)
    }

    @Test func targetSplitting() {
        let cases: [(target: String, path: String, query: String?)] = [
            ("/", "/", nil),
            ("/a/b?c=d", "/a/b", "c=d"),
            ("/a?", "/a", ""),
            ("/a?b?c", "/a", "b?c"),
            ("/%2F?x=%20", "/%2F", "x=%20"),
            ("http://example.com/a?b", "/a", "b"),
            ("http://example.com", "/", nil),
            ("http://example.com?q", "/", "q"),
        ]
        for (target, path, query) in cases {
            let split = RequestHead.split(target: target)
            #expect(split.path == path, "\(target)")
            #expect(split.query == query, "\(target)")
        }
    }
}

@Suite struct MicroHTTPDServerConcurrencyTests {
    @Test func twoHundredSlowRequestsOverlapOnTwoThreads() async throws {
        // Given a handler that waits until 200 requests are inside it at once (or 60 s, so a failure ends)
        let barrier = Barrier(count: 200, timeout: 60)
        let server = try startServer(workerThreads: 2) { request in
            await barrier.arriveAndWait()
            try? await Task.sleep(nanoseconds: 50_000_000)
            return ServeResponse(status: 200, body: Data(request.path.utf8))
        }

        // When 200 requests arrive in parallel on their own connections
        let urls = (0..<200).map { url(server, "/item/\($0)") }
        let response = try await curl(
            ["--parallel", "--parallel-immediate", "--parallel-max", "200", "-w", "%{http_code}\n"] + urls)

        // Then all 200 were in the handler at the same time, with two worker threads, and all succeed
        #expect(barrier.arrivedBeforeOpening == 200)
        #expect(response.output.split(separator: "\n").count == 200)
        #expect(response.output.split(separator: "\n").allSatisfy { $0 == "200" }, "\(response.output)")
        await server.shutdown(grace: 1)
    }
}

@Suite struct MicroHTTPDServerLifecycleTests {
    @Test func shutdownLetsARequestInFlightFinishThenRefusesConnections() async throws {
        // Given a request whose handler is running (it waits for a gate)
        let entered = Gate()
        let release = Gate()
        let finished = Recorder<String>()
        let server = try startServer { request in
            entered.open()
            await release.wait()
            finished.append(request.path)
            return ServeResponse(status: 200, body: Data("finished".utf8))
        }
        let port = server.port
        let address = url(server, "/slow")
        let inFlight = Task { try await curl([address]) }
        await entered.wait()

        // When the server shuts down with a generous grace period
        let shutdown = Task { await server.shutdown(grace: 30) }

        // Then new connections are refused while the request is still in flight (bounded: shutdown refuses them
        // right away, before it waits)
        var refusedWhileDraining = false
        for _ in 0..<10_000 where !refusedWhileDraining {
            refusedWhileDraining = !canConnect(port: port)
            await Task.yield()
        }
        #expect(refusedWhileDraining)
        #expect(finished.all.isEmpty)

        // And the request in flight completes, shutdown returns, and connections stay refused
        release.open()
        await shutdown.value
        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(response.body == Data("finished".utf8))
        #expect(response.header("Connection") == "close")
        #expect(finished.all == ["/slow"])
        let refused = try await curl([address])
        #expect(refused.exitCode == 7)  // "Failed to connect"
        await server.shutdown(grace: 30)  // idempotent: returns at once
    }

    @Test func shutdownEndsAHandlerThatOutlivesTheGracePeriod() async throws {
        // Given a request whose handler waits for a gate that opens only after shutdown
        let entered = Gate()
        let release = Gate()
        let delivered = Gate()
        let server = try startServer { _ in
            entered.open()
            await release.wait()
            delivered.open()
            return ServeResponse(status: 200, body: Data("too late".utf8))
        }
        let address = url(server, "/stuck")
        let inFlight = Task { try await curl([address]) }
        await entered.wait()

        // When shutdown's short grace period ends first
        await server.shutdown(grace: 0.2)
        release.open()
        await delivered.wait()

        // Then shutdown returned; the client got a 503 or a closed connection, never the late response
        let response = try await inFlight.value
        #expect(response.status == 503 || response.exitCode != 0)
        #expect(response.body != Data("too late".utf8))
        let refused = try await curl([address])
        #expect(refused.exitCode == 7)
    }

    @Test func concurrentShutdownsAllReturn() async throws {
        let server = try startServer { _ in ServeResponse(status: 200) }
        let port = server.port
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { await server.shutdown(grace: 1) }
            }
        }
        let refused = try await curl(["http://127.0.0.1:\(port)/"])
        #expect(refused.exitCode == 7)
    }

    @Test func portZeroPicksAFreePortAndATakenPortIsATypedError() async throws {
        // Given a server on a port the system chose
        let first = try startServer { _ in ServeResponse(status: 204) }
        #expect(first.port != 0)
        #expect(try await curl([url(first, "/")]).status == 204)

        // When another server asks for the same port
        var configuration = MicroHTTPDServer.Configuration()
        configuration.port = first.port
        let port = first.port

        // Then it fails with addressInUse
        #expect(throws: MicroHTTPDServerError.addressInUse(address: "127.0.0.1", port: port)) {
            _ = try MicroHTTPDServer(
                configuration: configuration, handler: ClosureHandler { _ in ServeResponse(status: 200) })
        }
        await first.shutdown(grace: 1)

        // And once the first has stopped, the port can be taken again
        let second = try MicroHTTPDServer(
            configuration: configuration, handler: ClosureHandler { _ in ServeResponse(status: 200) })
        #expect(second.port == port)
        await second.shutdown(grace: 1)
    }

    @Test func invalidAddressesAndLimitsAreTypedErrors() {
        let handler = ClosureHandler { _ in ServeResponse(status: 200) }
        for address in ["localhost", "300.1.1.1", "[::1]", "", "127.0.0.1:80"] {
            var configuration = MicroHTTPDServer.Configuration()
            configuration.address = address
            #expect(throws: MicroHTTPDServerError.invalidAddress(address)) {
                _ = try MicroHTTPDServer(configuration: configuration, handler: handler)
            }
        }
        var configuration = MicroHTTPDServer.Configuration()
        configuration.workerThreads = 0
        #expect(throws: MicroHTTPDServerError.invalidConfiguration("workerThreads must be between 1 and 1024")) {
            _ = try MicroHTTPDServer(configuration: configuration, handler: handler)
        }
        configuration = MicroHTTPDServer.Configuration()
        configuration.workerThreads = 4
        configuration.maximumConnections = 3
        #expect(
            throws: MicroHTTPDServerError.invalidConfiguration(
                "maximumConnections must be between workerThreads and 1,000,000")
        ) {
            _ = try MicroHTTPDServer(configuration: configuration, handler: handler)
        }
        configuration = MicroHTTPDServer.Configuration()
        configuration.address = "192.0.2.1"  // TEST-NET-1: on no interface here
        #expect(throws: MicroHTTPDServerError.addressNotAvailable(address: "192.0.2.1", port: 0)) {
            _ = try MicroHTTPDServer(configuration: configuration, handler: handler)
        }
    }

    @Test func listensOnIPv6Loopback() async throws {
        var configuration = MicroHTTPDServer.Configuration()
        configuration.address = "::1"
        let server: MicroHTTPDServer
        do {
            server = try MicroHTTPDServer(
                configuration: configuration, handler: ClosureHandler { _ in ServeResponse(status: 200) })
        } catch .addressNotAvailable {
            return  // this machine has no IPv6 loopback
        }
        #expect(server.port != 0)
        await server.shutdown(grace: 1)
    }

    @Test func anIPv4ClientOfAnIPv6SocketHasItsIPv4Address() async throws {
        // Given a server on an IPv6 socket bound to the IPv4-mapped loopback address
        let addresses = Recorder<String?>()
        let server = try startServer(configure: { $0.address = "::ffff:127.0.0.1" }) { request in
            addresses.append(request.remoteAddress)
            return ServeResponse(status: 200)
        }

        // When an IPv4 client connects
        #expect(try await curl([url(server, "/")]).status == 200)

        // Then the handler sees 127.0.0.1, not ::ffff:127.0.0.1
        #expect(addresses.all == ["127.0.0.1"])
        await server.shutdown(grace: 1)
    }

    @Test func deinitStopsTheServer() async throws {
        var server: MicroHTTPDServer? = try startServer { _ in ServeResponse(status: 200) }
        let port = try #require(server?.port)
        #expect(try await curl(["http://127.0.0.1:\(port)/"]).status == 200)
        server = nil
        #expect(try await curl(["http://127.0.0.1:\(port)/"]).exitCode == 7)
    }

    @Test func noDescriptorLeaksAcrossStartStopCycles() async throws {
        // Given a process of its own that starts and stops a server 20 times, each time serving keep-alive requests
        // and leaving an idle connection open at shutdown
        let process = Process()
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        process.executableURL = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
            .appendingPathComponent("ServeMicroHTTPDTestCycler")
        process.arguments = ["20"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        // Then its count of open descriptors after the cycles equals the count before them
        #expect(process.terminationStatus == 0)
        let text = String(decoding: data, as: UTF8.self)
        let words = text.split(separator: "\n").first?.split(separator: " ") ?? []
        #expect(words.count == 3 && words[0] == "fds", "\(text)")
        #expect(words.count == 3 && words[1] == words[2], "\(text)")
    }
}
