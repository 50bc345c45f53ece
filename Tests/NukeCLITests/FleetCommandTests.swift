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
}
