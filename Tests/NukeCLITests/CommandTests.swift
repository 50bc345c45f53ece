import Foundation
import Nuke
import NukeTestKit
import Testing

@Suite struct CommandTests {
    @Test(arguments: [[], ["fetch"], ["info"], ["cache"], ["demo"]])
    func everyCommandHasHelp(_ command: [String]) async throws {
        let result = try await NukeProcess.run(command + ["--help"])

        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: nuke " + (command.first ?? "COMMAND")))
    }

    @Test func infoDescribesAFileAndNamesAMissingOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(try Images.png(width: 12, height: 7), to: "small.png")

        let info = try await NukeProcess.run(["info", "small.png"], in: directory.url)
        let missing = try await NukeProcess.run(["info", "absent.webp"], in: directory.url)

        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("public.png"))
        #expect(info.stdout.contains("12×7"))
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: absent.webp: no such file"))
    }

    @Test func cacheStatsAndClearWorkOnTheFetchCache() async throws {
        // Given a fetch over HTTP into a disk cache
        let server = try LoopbackHTTPServer(routes: [
            "/a.png": .data(try Images.png(width: 20, height: 20), headers: ["Content-Type": "image/png"])
        ])
        defer { server.shutdown() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fetch = try await NukeProcess.run(
            ["fetch", server.url("/a.png").absoluteString, "--cache-dir", "cache"], in: directory.url)
        #expect(fetch.status == 0, "\(fetch.stderr)")

        // When asking for the statistics, clearing, and asking again
        let before = try await NukeProcess.run(["cache", "stats", "--cache-dir", "cache"], in: directory.url)
        let clear = try await NukeProcess.run(["cache", "clear", "--cache-dir", "cache"], in: directory.url)
        let after = try await NukeProcess.run(["cache", "stats", "--cache-dir", "cache"], in: directory.url)
        let noDirectory = try await NukeProcess.run(["cache", "stats"], in: directory.url)

        // Then the entry shows up, and is gone after clearing
        #expect(before.status == 0 && clear.status == 0 && after.status == 0)
        #expect(before.stdout.contains("entries             1"))
        #expect(after.stdout.contains("entries             0"))
        #expect(noDirectory.status == 64)
    }

    @Test func demoPlaysTheFeedAndWritesAReadableContactSheet() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let result = try await NukeProcess.run(["demo", "--cells", "60", "-o", "sheet.png"], in: directory.url)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("What the pipeline shared"))
        #expect(result.stdout.contains(directory.url.appendingPathComponent("sheet.png").path))
        let sheet = try Images.decode(directory.url.appendingPathComponent("sheet.png"))
        #expect((sheet.width, sheet.height) == (20 * 66 + 2, 3 * 66 + 2))
    }
}
