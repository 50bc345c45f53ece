import Foundation
import NukeServe
import ServeMicroHTTPD
import Testing

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
