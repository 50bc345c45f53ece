import Foundation
import Nuke
import NukeTestKit
import Testing

/// `nuke info` and `nuke fetch --cache-dir` with the disk cache ignoring HTTP caching headers (the default) or
/// following them (`--http-cache follow`).
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
        let following = try await NukeProcess.run(
            ["info", server.url("/fresh.png").absoluteString, "--http-cache", "follow"])
        let noStoreFollowing = try await NukeProcess.run(
            ["info", server.url("/private.png").absoluteString, "--http-cache", "follow"])

        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.contains("Cache-Control       max-age=600"))
        #expect(fresh.stdout.contains("ETag                \"a1\""))
        #expect(
            fresh.stdout.contains("disk cache          stored, served until evicted (headers ignored, the default)"))
        #expect(
            fresh.stdout.contains(
                "following headers   stored, fresh for 10 min (max-age); revalidated with If-None-Match"))
        #expect(
            noStore.stdout.contains("disk cache          stored, served until evicted (headers ignored, the default)"))
        #expect(noStore.stdout.contains("following headers   not stored (no-store)"))
        #expect(following.status == 0, "\(following.stderr)")
        #expect(
            following.stdout.contains(
                "disk cache          stored, fresh for 10 min (max-age); revalidated with If-None-Match"))
        #expect(!following.stdout.contains("headers ignored"))
        #expect(noStoreFollowing.stdout.contains("disk cache          not stored (no-store)"))
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
            ["fetch"] + urls + ["--cache-dir", "cache", "-o", "a", "--http-cache", "follow"], in: directory.url)
        let second = try await NukeProcess.run(
            ["fetch"] + urls + ["--cache-dir", "cache", "-o", "b", "--http-cache", "follow"], in: directory.url)

        // Then the second run made one fresh hit, one 304 and one refetch
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("http cache          1 fresh, 1 revalidated (304), 1 refetched, 0 stale"))
        #expect(second.stdout.contains("(8×8, disk cache, revalidated (304))"))
        #expect(server.requests(for: "/fresh.png").count == 1)
        #expect(server.requests(for: "/revalidate.png").last?.header("If-None-Match") == "\"r1\"")
        #expect(server.requests(for: "/plain.png").count == 2)
    }

    @Test func fetchByDefaultServesWhatTheCacheHoldsWithNoRequest() async throws {
        // Given an image with no caching header and one the server asks to revalidate every time
        let png = try Images.png(width: 8, height: 8)
        let server = try LoopbackHTTPServer(routes: [
            "/plain.png": .data(png, headers: ["Content-Type": "image/png"]),
            "/no-cache.png": .data(
                png, headers: ["Content-Type": "image/png", "Cache-Control": "no-cache", "ETag": "\"n1\""]),
        ])
        defer { server.shutdown() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let urls = ["/plain.png", "/no-cache.png"].map { server.url($0).absoluteString }

        // When fetched into a disk cache, then again with the server up, then again with it gone
        let first = try await NukeProcess.run(["fetch"] + urls + ["--cache-dir", "cache"], in: directory.url)
        let second = try await NukeProcess.run(["fetch"] + urls + ["--cache-dir", "cache"], in: directory.url)
        server.shutdown()
        let offline = try await NukeProcess.run(["fetch"] + urls + ["--cache-dir", "cache"], in: directory.url)

        // Then each image was downloaded once: the later runs were served by the disk cache, offline too
        for result in [first, second, offline] { #expect(result.status == 0, "\(result.stderr)") }
        #expect(server.requests(for: "/plain.png").count == 1)
        #expect(server.requests(for: "/no-cache.png").count == 1)
        for result in [second, offline] {
            #expect(result.stdout.contains("loads               0 "), "\(result.stdout)")
            #expect(result.stdout.components(separatedBy: "(8×8, disk cache)").count == 3, "\(result.stdout)")
            #expect(
                result.stdout.contains(
                    "http cache          headers ignored: stored data serves until evicted (--http-cache follow)"))
        }
    }

    @Test func httpCacheOptionIsCheckedBeforeAnythingLoads() async throws {
        let unknown = try await NukeProcess.run(
            ["fetch", "http://127.0.0.1:9/a.png", "--cache-dir", "c", "--http-cache", "sometimes"])
        let noCache = try await NukeProcess.run(["fetch", "http://127.0.0.1:9/a.png", "--http-cache", "follow"])
        let info = try await NukeProcess.run(["info", "http://127.0.0.1:9/a.png", "--http-cache", "never"])

        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("nuke: unknown --http-cache policy 'sometimes' (use follow or ignore)\n"))
        #expect(noCache.status == 64)
        #expect(noCache.stderr.hasPrefix("nuke: --http-cache needs a disk cache (--cache-dir or --redis)\n"))
        #expect(info.status == 64)
        #expect(info.stderr.hasPrefix("nuke: unknown --http-cache policy 'never' (use follow or ignore)\n"))
    }
}
