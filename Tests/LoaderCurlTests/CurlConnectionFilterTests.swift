import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit
import Testing

/// `CurlDataLoader.Configuration.allowsConnection`: every address curl is about to connect to is asked about, on
/// the first request and on each redirect hop, and a refusal is a typed error with nothing sent.
@Suite struct CurlConnectionFilterTests {
    /// The addresses and ports the filter was asked about, in order.
    final class Recorder: Sendable {
        let asked = LockedValueBox<[String]>([])
        let allowedPorts: Set<Int>

        init(allowedPorts: Set<Int>) {
            self.allowedPorts = allowedPorts
        }

        func loader() -> CurlDataLoader {
            var configuration = CurlDataLoader.Configuration()
            configuration.allowsConnection = { address, port in
                self.asked.withLock { $0.append("\(address):\(port)") }
                return self.allowedPorts.contains(port)
            }
            return CurlDataLoader(configuration: configuration)
        }
    }

    @Test func anAllowedAddressLoadsAndARefusedOneSendsNothing() async throws {
        let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("a".utf8))])
        defer { server.shutdown() }
        let allowing = Recorder(allowedPorts: [server.port])
        let refusing = Recorder(allowedPorts: [])

        let allowed = try await load(allowing.loader(), server.url("/a"))
        let refused = try await load(refusing.loader(), server.url("/a"))

        #expect(allowed.error == nil && allowed.data == Data("a".utf8))
        #expect(allowing.asked.withLock { $0 } == ["127.0.0.1:\(server.port)"])
        #expect(refused.curlError == .connectionRefused(address: "127.0.0.1", url: server.url("/a")))
        #expect(refused.curlError?.refusedAddress == "127.0.0.1")
        #expect((refused.error as? any ConnectionRefusalError)?.refusedAddress == "127.0.0.1")
        #expect(
            refused.curlError?.description
                == "The connection to 127.0.0.1 was refused by the loader's allowsConnection (\(server.url("/a")))")
        #expect(server.requests(for: "/a").count == 1)
    }

    @Test func aRedirectToARefusedAddressFailsBeforeItsRequest() async throws {
        let inside = try LoopbackHTTPServer(routes: ["/secret": .data(Data("secret".utf8))])
        defer { inside.shutdown() }
        let outside = try LoopbackHTTPServer(routes: ["/image": .redirect(to: inside.url("/secret").absoluteString)])
        defer { outside.shutdown() }
        let recorder = Recorder(allowedPorts: [outside.port])

        let result = try await load(recorder.loader(), outside.url("/image"))

        #expect(result.curlError?.refusedAddress == "127.0.0.1")
        #expect(result.data.isEmpty)
        #expect(outside.requests(for: "/image").count == 1)
        #expect(inside.requests(for: "/secret").isEmpty)
        #expect(recorder.asked.withLock { $0 } == ["127.0.0.1:\(outside.port)", "127.0.0.1:\(inside.port)"])
    }

    @Test func everyAddressOfANameIsAsked() async throws {
        let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("a".utf8))])
        defer { server.shutdown() }
        let recorder = Recorder(allowedPorts: [])

        let result = try await load(recorder.loader(), URL(string: "http://localhost:\(server.port)/a")!)

        // localhost resolves to 127.0.0.1 and, where IPv6 is configured, ::1: each is asked, and refused.
        let asked = recorder.asked.withLock { $0 }
        #expect(asked.contains("127.0.0.1:\(server.port)"))
        #expect(Set(asked).isSubset(of: ["127.0.0.1:\(server.port)", "::1:\(server.port)"]))
        #expect(result.curlError?.refusedAddress != nil)
        #expect(server.requests(for: "/a").isEmpty)
    }

    @Test func anAllowedAddressThatFailsToConnectIsCurlsOwnError() async throws {
        // Given a port where nothing listens, allowed by the filter: on 127.0.0.3, where no test listens, so no
        // server of a test running meanwhile can take the port over
        let closed = try LoopbackHTTPServer()
        let port = closed.port
        closed.shutdown()
        let recorder = Recorder(allowedPorts: [port])

        let result = try await load(recorder.loader(), URL(string: "http://127.0.0.3:\(port)/a")!)

        // Then the failure is the connection's, not a refusal
        #expect(result.curlError?.code == .couldNotConnect)
        #expect(result.curlError?.refusedAddress == nil)
    }
}
