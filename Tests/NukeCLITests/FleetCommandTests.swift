import Foundation
import Nuke
import NukeTestKit
import Testing

/// Two `nuke` processes sharing one Redis: the second downloads nothing, as nginx's access log shows.
@Suite(
    "nuke fetch --redis", .serialized,
    .enabled(if: RedisServer.unavailableReason == nil, Comment(rawValue: RedisServer.unavailableReason ?? "")))
struct FleetCommandTests {
    @Test(.enabled(if: NginxServer.unavailableReason == nil, Comment(rawValue: NginxServer.unavailableReason ?? "")))
    func aSecondProcessIsServedFromRedis() async throws {
        // Given 200 images on a local nginx (cacheable for 10 minutes) and an empty Redis
        let png = try Images.png(width: 6, height: 6)
        let names = (0..<200).map { "\($0).png" }
        let nginx = try await NginxServer.start(
            files: Dictionary(uniqueKeysWithValues: names.map { ($0, png) }), locations: "location / { expires 10m; }")
        let redis = try RedisServer()
        let urls = names.map { nginx.url($0).absoluteString }

        // When two processes fetch them one after the other through it, and then one more with Redis gone
        let first = try await NukeProcess.run(["fetch"] + urls + ["--redis", redis.url])
        let second = try await NukeProcess.run(["fetch"] + urls + ["--redis", redis.url])
        let stats = try await NukeProcess.run(["cache", "stats", "--redis", redis.url])
        redis.stop()
        let offline = try await NukeProcess.run(["fetch"] + urls.prefix(20) + ["--redis", redis.url])
        await nginx.stopped()  // The access log is complete once nginx has exited.

        // Then, by nginx's access log: the first process downloaded each image once, the second none, and with
        // Redis gone every image still loaded from nginx, with no error
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(offline.status == 0, "\(offline.stderr)")
        let log = try nginx.accessLog()
        #expect(log.count == 220, "\(nginx.errorLog)")
        #expect(log.allSatisfy { $0.status == 200 })
        #expect(Set(log.prefix(200).map(\.uri)) == Set(names.map { "/" + $0 }))
        #expect(log.suffix(20).map(\.uri).sorted() == names.prefix(20).map { "/" + $0 }.sorted())
        #expect(second.stdout.contains("loads               0 "))
        #expect(stats.stdout.contains("entries             200"), "\(stats.stdout)")
    }

    @Test(.enabled(if: NginxServer.unavailableReason == nil, Comment(rawValue: NginxServer.unavailableReason ?? "")))
    func aSecondProcessAsksTheOriginNothingWhateverItsHeaders() async throws {
        // Given 100 images on a local nginx with its default headers (a fresh Last-Modified and an ETag, no
        // freshness lifetime: stale at once to a cache that follows them) and an empty Redis
        let png = try Images.png(width: 5, height: 5)
        let names = (0..<100).map { "\($0).png" }
        let nginx = try await NginxServer.start(files: Dictionary(uniqueKeysWithValues: names.map { ($0, png) }))
        // Modified "in an hour": no heuristic freshness at all. With a Last-Modified in the past, an image is fresh
        // for 10 % of its age when fetched, and on a slow machine the first process starts late enough for the
        // third to find some images still fresh.
        let future = Date().addingTimeInterval(3600)
        for name in names {
            let path = nginx.directory.appendingPathComponent("html").appendingPathComponent(name).path
            try FileManager.default.setAttributes([.modificationDate: future], ofItemAtPath: path)
        }
        let redis = try RedisServer()
        let urls = names.map { nginx.url($0).absoluteString }

        // When one process fills Redis following the headers (so the entries carry them), a second one fetches the
        // same images with the default policy, and a third follows the headers again
        let first = try await NukeProcess.run(["fetch"] + urls + ["--redis", redis.url, "--http-cache", "follow"])
        let second = try await NukeProcess.run(["fetch"] + urls + ["--redis", redis.url])
        let following = try await NukeProcess.run(["fetch"] + urls + ["--redis", redis.url, "--http-cache", "follow"])
        redis.stop()
        await nginx.stopped()  // The access log is complete once nginx has exited.

        // Then, by nginx's access log: 100 downloads by the first, no request at all by the second, and a
        // revalidation per image by the third (each answered 304: the stored bytes were served)
        for result in [first, second, following] { #expect(result.status == 0, "\(result.stderr)") }
        let log = try nginx.accessLog()
        #expect(log.count == 200, "\(nginx.errorLog)")
        #expect(Set(log.prefix(100).map(\.uri)) == Set(names.map { "/" + $0 }))
        #expect(log.prefix(100).allSatisfy { $0.status == 200 })
        #expect(log.suffix(100).allSatisfy { $0.status == 304 })
        #expect(second.stdout.contains("loads               0 "), "\(second.stdout)")
        #expect(second.stdout.contains("redis               100 hits, 0 misses"), "\(second.stdout)")
        #expect(following.stdout.contains("100 revalidated (304)"), "\(following.stdout)")
    }
}
