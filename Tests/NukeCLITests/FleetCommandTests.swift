import Foundation
import Nuke
import NukeTestKit
import Testing

/// Two `nuke` processes sharing one Redis: the second downloads nothing.
@Suite(
    "nuke fetch --redis", .serialized,
    .enabled(if: RedisServer.unavailableReason == nil, Comment(rawValue: RedisServer.unavailableReason ?? "")))
struct FleetCommandTests {
    @Test func aSecondProcessIsServedFromRedis() async throws {
        // Given 200 images on a server and an empty Redis
        let png = try Images.png(width: 6, height: 6)
        var routes: [String: LoopbackHTTPServer.Route] = [:]
        for index in 0..<200 {
            routes["/\(index).png"] = .data(
                png, headers: ["Content-Type": "image/png", "Cache-Control": "max-age=600"])
        }
        let server = try LoopbackHTTPServer(routes: routes)
        defer { server.shutdown() }
        let redis = try RedisServer()
        let urls = (0..<200).map { server.url("/\($0).png").absoluteString }

        // When two processes fetch them one after the other through it
        let first = try await NukeProcess.run(["fetch"] + urls + ["--redis", redis.url])
        let afterFirst = server.requests.count
        let second = try await NukeProcess.run(["fetch"] + urls + ["--redis", redis.url])
        let stats = try await NukeProcess.run(["cache", "stats", "--redis", redis.url])

        // Then the first downloaded each image once, the second none
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(afterFirst == 200)
        #expect(server.requests.count == 200)
        #expect(second.stdout.contains("loads               0 "))
        #expect(stats.stdout.contains("entries             200"), "\(stats.stdout)")

        // And with Redis gone, every image still loads, from the network, with no error
        redis.stop()
        let offline = try await NukeProcess.run(["fetch"] + urls.prefix(20) + ["--redis", redis.url])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(server.requests.count == 220)
    }
}
