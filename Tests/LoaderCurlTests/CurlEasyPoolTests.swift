import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import LoaderCurl

@Suite("CurlEasyPool")
struct CurlEasyPoolTests {
    @Test func aReusedHandleCarriesNothingOverFromItsLastRequest() async throws {
        // Given a loader that ran two PUTs with a body, custom headers and a redirect, one after the other (the loop
        // recycles a handle right after its completion callback, on its own thread: the test waits for it)
        let server = try LoopbackHTTPServer(routes: [
            "/upload": .redirect(to: "/done", status: 307), "/done": .data(Data("done".utf8)),
            "/plain": .data(Data("plain".utf8)),
        ])
        let loader = CurlDataLoader()
        let engine = try #require(loader.engine)
        var upload = URLRequest(url: server.url("/upload"))
        upload.httpMethod = "PUT"
        upload.httpBody = Data("payload".utf8)
        upload.setValue("secret", forHTTPHeaderField: "Authorization")
        for _ in 0..<2 {
            let result = try await load(loader, upload)
            #expect(result.succeeded)
        }
        #expect(await eventually { engine.easyPool.idleCount >= 1 })

        // When a plain GET takes a recycled handle
        let plain = try await load(loader, server.url("/plain"))

        // Then nothing of the PUTs leaks into it: method, body, headers, redirects, response URL
        #expect(plain.succeeded)
        #expect(plain.data == Data("plain".utf8))
        #expect(plain.httpResponse?.url == server.url("/plain"))
        #expect(plain.httpResponse?.statusCode == 200)
        let request = try #require(server.requests(for: "/plain").first)
        #expect(request.method == "GET")
        #expect(request.body.isEmpty)
        #expect(request.header("Authorization") == nil)
        #expect(server.requests(for: "/upload").count == 2)
    }

    @Test func thePoolKeepsAtMostItsCapacity() throws {
        // Given a pool of two
        let pool = CurlEasyPool(capacity: 2)
        let handles = try (0..<3).map { _ in try pool.take() }

        // When three handles come back
        for handle in handles { pool.recycle(handle) }

        // Then two are kept, and taking reuses them before making new ones
        #expect(pool.idleCount == 2)
        let reused = try pool.take()
        #expect(reused === handles[1])
        #expect(pool.idleCount == 1)
    }
}
