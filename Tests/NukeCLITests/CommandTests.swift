import Foundation
import Nuke
import NukeTestKit
import Testing

@testable import NukeCLI

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

    @Test func cacheNamesTheSubcommandItDoesNotKnow() async throws {
        let purge = try await NukeProcess.run(["cache", "purge", "--cache-dir", "cache"])
        let none = try await NukeProcess.run(["cache", "--cache-dir", "cache"])
        let extra = try await NukeProcess.run(["cache", "stats", "now", "--cache-dir", "cache"])

        #expect(purge.status == 64)
        #expect(purge.stderr.hasPrefix("nuke: unknown subcommand 'purge' (use stats or clear)\n"))
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("nuke: give one subcommand: stats or clear\n"))
        #expect(extra.status == 64)
        #expect(extra.stderr.hasPrefix("nuke: unexpected argument 'now' after 'stats'\n"))
    }

    @Test func cacheCommandsRefuseADirectoryThatIsNotACacheAndCreateNothing() async throws {
        // Given a directory with a file but no cache in it, and a path where nothing exists
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try directory.write(Data("keep me".utf8), to: "photos/notes.txt")
        let photos = directory.url.appendingPathComponent("photos").path
        let absent = directory.url.appendingPathComponent("absent").path

        // When asking for statistics and clearing
        let stats = try await NukeProcess.run(["cache", "stats", "--cache-dir", "photos"], in: directory.url)
        let clear = try await NukeProcess.run(["cache", "clear", "--cache-dir", "photos"], in: directory.url)
        let missing = try await NukeProcess.run(["cache", "stats", "--cache-dir", "absent"], in: directory.url)
        let file = try await NukeProcess.run(
            ["cache", "clear", "--cache-dir", "photos/notes.txt"], in: directory.url)

        // Then each says it is not a cache, exits with 1, and nothing was created or removed
        #expect(stats.status == 1 && clear.status == 1 && missing.status == 1 && file.status == 1)
        #expect(stats.stderr.hasPrefix("nuke: \(photos) is not a disk cache: it has no .datacache/ directory"))
        #expect(clear.stderr == stats.stderr)
        #expect(missing.stderr == "nuke: \(absent) is not a disk cache: no such directory\n")
        #expect(file.stderr == "nuke: \(photos)/notes.txt is not a disk cache: not a directory\n")
        #expect(try directory.files(in: "photos") == ["notes.txt"])
        #expect(try directory.files(in: ".") == ["photos"])
    }

    @Test func versionAndUnknownCommands() async throws {
        let version = try await NukeProcess.run(["--version"])
        let unknown = try await NukeProcess.run(["frobnicate", "x"])

        #expect(version.status == 0 && version.stdout == "nuke \(CLI.version)\n")
        #expect(!CLI.version.isEmpty)
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("nuke: unknown command 'frobnicate'\n"))
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

    @Test(arguments: [[], ["--http-cache", "follow"]])
    func demoDownloadsEachImageOnceWithEitherPolicy(_ policy: [String]) async throws {
        let result = try await NukeProcess.run(["demo", "--cells", "120"] + policy)

        // "downloads           33 (2.1 MB; 33 distinct images)"
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("  downloads ") })
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let downloads = try #require(numbers.first)
        let distinct = try #require(numbers.last)
        // "cancellations  0 cells scrolled away …; 3 tasks cancelled in all …": a download cut short by a
        // cancellation is started again if its image is asked for later (in a slow build, flings cancel more).
        let cancellations = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("  cancellations ") })
        let cancelled = try #require(
            cancellations.components(separatedBy: "; ").last?.split(separator: " ").first.flatMap { Int($0) })
        #expect(downloads >= distinct && downloads <= distinct + cancelled, "\(line)\n\(cancellations)")
        if cancelled == 0 { #expect(downloads == distinct, "\(line)") }
        #expect(distinct > 20)
        if policy.isEmpty {
            #expect(result.stdout.contains("http cache          headers ignored"))
        } else {
            #expect(result.stdout.contains("http cache          headers followed: 0 revalidated"))
        }
    }
}
