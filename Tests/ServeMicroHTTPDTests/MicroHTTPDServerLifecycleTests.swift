import Foundation
import NukeServe
import NukeTestKit
import ServeMicroHTTPD
import Testing

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
