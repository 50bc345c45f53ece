import Foundation
import Nuke
import NukeTestKit
import Testing

/// `nuke info` and `nuke fetch --cache-dir` with the disk cache following HTTP caching headers.
@Suite struct HTTPCacheCommandTests {
    @Test func infoShowsTheCachingHeadersAndTheDecision() async throws {
        let png = try Images.png(width: 8, height: 8)
        let server = try LoopbackHTTPServer(routes: [
            "/fresh.png": .data(
                png, headers: ["Content-Type": "image/png", "Cache-Control": "max-age=600", "ETag": "\"a1\""]),
            "/private.png": .data(png, headers: ["Content-Type": "image/png", "Cache-Control": "no-store"]),
        ])
        defer { server.shutdown() }

        let fresh = try await NukeProcess.run(["info", server.url("/fresh.png").absoluteString])
        let noStore = try await NukeProcess.run(["info", server.url("/private.png").absoluteString])

        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.contains("Cache-Control       max-age=600"))
        #expect(fresh.stdout.contains("ETag                \"a1\""))
        #expect(
            fresh.stdout.contains(
                "disk cache          stored, fresh for 10 min (max-age); revalidated with If-None-Match"))
        #expect(noStore.stdout.contains("disk cache          not stored (no-store)"))
    }

    @Test func fetchCountsFreshHitsRevalidationsAndRefetches() async throws {
        // Given a fresh image, one that must be revalidated (answered 304), and one without a validator
        let png = try Images.png(width: 8, height: 8)
        let server = try LoopbackHTTPServer(routes: [
            "/fresh.png": .data(png, headers: ["Content-Type": "image/png", "Cache-Control": "max-age=600"]),
            "/revalidate.png": .handler { request in
                request.header("If-None-Match") == "\"r1\""
                    ? .data(Data(), status: 304, headers: ["ETag": "\"r1\""])
                    : .data(png, headers: ["Content-Type": "image/png", "Cache-Control": "no-cache", "ETag": "\"r1\""])
            },
            "/plain.png": .data(png, headers: ["Content-Type": "image/png"]),
        ])
        defer { server.shutdown() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let urls = ["/fresh.png", "/revalidate.png", "/plain.png"].map { server.url($0).absoluteString }

        // When fetched twice into the same cache
        let first = try await NukeProcess.run(
            ["fetch"] + urls + ["--cache-dir", "cache", "-o", "a"], in: directory.url)
        let second = try await NukeProcess.run(
            ["fetch"] + urls + ["--cache-dir", "cache", "-o", "b"], in: directory.url)

        // Then the second run made one fresh hit, one 304 and one refetch
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("http cache          1 fresh, 1 revalidated (304), 1 refetched, 0 stale"))
        #expect(second.stdout.contains("(8×8, disk cache, revalidated (304))"))
        #expect(server.requests(for: "/fresh.png").count == 1)
        #expect(server.requests(for: "/revalidate.png").last?.header("If-None-Match") == "\"r1\"")
        #expect(server.requests(for: "/plain.png").count == 2)
    }
}
