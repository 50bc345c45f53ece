import Foundation
import LoaderCurl
import NukeServe
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
