import Foundation
import NukeServe
import NukeTestKit
import ServeMicroHTTPD
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct MicroHTTPDServerConnectionLimitTests {
    @Test func aConnectionOverTheLimitWaitsInTheBacklogUntilOneCloses() async throws {
        // Given a server for two connections, both taken by idle clients
        let served = Recorder<String>()
        let server = try startServer(configure: { $0.maximumConnections = 2 }) { request in
            served.append(request.path)
            return ServeResponse(status: 200, body: Data("served".utf8))
        }
        let first = try #require(openConnection(port: server.port))
        let second = try #require(openConnection(port: server.port))
        defer { close(second) }

        // When a third client sends a request
        let third = Task { try await curl([url(server, "/third")]) }

        // Then it is not served while both connections stay open (its connection waits in the listen backlog)
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(served.all.isEmpty)

        // And once one of them closes, it is served
        close(first)
        let response = try await third.value
        #expect(response.status == 200)
        #expect(response.body == Data("served".utf8))
        #expect(served.all == ["/third"])
        await server.shutdown(grace: 1)
    }

    @Test func shutdownAtTheConnectionLimitDrainsAndRefuses() async throws {
        // Given a server for two connections, both with a handler running, and a third connection in the backlog
        // (three parties: the two handlers and this test, which goes on once both handlers run)
        let entered = Barrier(count: 3, timeout: 30)
        let release = Gate()
        let server = try startServer(configure: { $0.maximumConnections = 2 }) { request in
            await entered.arriveAndWait()
            await release.wait()
            return ServeResponse(status: 200, body: Data(request.path.utf8))
        }
        let port = server.port
        let inFlight = (0..<2).map { index in Task { try await curl([url(server, "/\(index)")]) } }
        await entered.arriveAndWait()
        let waiting = Task { try await curl([url(server, "/waiting")]) }
        try await Task.sleep(nanoseconds: 200_000_000)

        // When the server shuts down with a generous grace period
        let shutdown = Task { await server.shutdown(grace: 30) }

        // Then new connections are refused while the two requests are still in flight
        var refused = false
        for _ in 0..<10_000 where !refused {
            refused = !canConnect(port: port)
            await Task.yield()
        }
        #expect(refused)

        // And the two finish with their responses, the one from the backlog was never served, and shutdown returns
        release.open()
        await shutdown.value
        for (index, task) in inFlight.enumerated() {
            let response = try await task.value
            #expect(response.status == 200)
            #expect(response.body == Data("/\(index)".utf8))
            #expect(response.header("Connection") == "close")
        }
        let backlog = try await waiting.value
        #expect(backlog.exitCode != 0)
        #expect(backlog.status == 0)
    }

    @Test func shuttingDownUnderLoadAtTheLimitNeverFails() async throws {
        // Given, 20 times over, a server at its connection limit with clients connecting all the time
        for cycle in 0..<20 {
            let server = try startServer(workerThreads: 4, configure: { $0.maximumConnections = 4 }) { request in
                ServeResponse(status: 200, body: Data(request.path.utf8))
            }
            let port = server.port
            let stop = Gate()
            let answered = Recorder<String>()
            // (each client on a thread of its own: they block in recv(2) while their connection waits in the backlog)
            let clients = (0..<16).map { client in
                Task {
                    await onThreadOfItsOwn {
                        let request = "GET /\(cycle)/\(client) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        while !stop.isOpen {
                            guard let reply = blockingExchange(port: port, request: request), !reply.isEmpty else {
                                continue
                            }
                            answered.append(String(String(decoding: reply, as: UTF8.self).prefix(12)))
                        }
                    }
                }
            }
            // (shut down once answers flow: a fixed pause could pass before any on a loaded machine)
            for _ in 0..<1_000 where answered.all.count < 8 {
                try await Task.sleep(nanoseconds: 10_000_000)
            }

            // When it shuts down in the middle of that
            await server.shutdown(grace: 0.05)
            stop.open()
            for client in clients { await client.value }

            // Then the process is still here, every answer was a whole response (a 503 for a request the short
            // grace period cut off), and connections are refused
            #expect(!answered.all.isEmpty)
            #expect(answered.all.allSatisfy { $0 == "HTTP/1.1 200" || $0 == "HTTP/1.1 503" })
            #expect(!canConnect(port: port))
        }
    }
}
