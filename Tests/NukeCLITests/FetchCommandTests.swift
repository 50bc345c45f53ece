import Foundation
import Nuke
import NukeTestKit
import Testing

@Suite struct FetchCommandTests {
    @Test func fetchesLocalFilesResizesAndWritesPredictableNames() async throws {
        // Given a 200×100 PNG and a 120×240 JPEG on disk
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(try Images.png(width: 200, height: 100), to: "wide.png")
        try directory.write(try Images.jpeg(width: 120, height: 240), to: "tall photo.jpg")

        // When fetching both (by relative path) with a 50×50 fit
        let result = try await NukeProcess.run(
            ["fetch", "wide.png", "tall photo.jpg", "--resize", "50x50", "-o", "out"], in: directory.url)

        // Then both are written, fitted inside 50×50, named NAME-HASH.png
        #expect(result.status == 0, "\(result.stderr)")
        let names = try directory.files(in: "out")
        #expect(names.count == 2)
        let wide = try #require(names.first { $0.hasPrefix("wide-") })
        let tall = try #require(names.first { $0.hasPrefix("tall_photo-") })
        #expect(wide.count == "wide-12345678.png".count && wide.hasSuffix(".png"))
        let wideImage = try Images.decode(directory.url.appendingPathComponent("out/\(wide)"))
        let tallImage = try Images.decode(directory.url.appendingPathComponent("out/\(tall)"))
        #expect((wideImage.width, wideImage.height) == (50, 25))
        #expect((tallImage.width, tallImage.height) == (25, 50))
        #expect(result.stdout.contains("errors              0"))
    }

    @Test func cropFillsExactlyAndFormatSelectsTheEncoder() async throws {
        // Given a 200×100 PNG
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(try Images.png(width: 200, height: 100), to: "source.png")

        // When fetching it as a file: URL, cropped to 40×40, as WebP and as JPEG
        let webp = try await NukeProcess.run(
            ["fetch", file.absoluteString, "--resize", "40x40", "--crop", "--format", "webp", "-o", "webp"],
            in: directory.url)
        let jpeg = try await NukeProcess.run(
            ["fetch", "source.png", "--resize", "40x40", "--fill", "--format", "jpeg", "-o", "jpeg"], in: directory.url)

        // Then the WebP is exactly 40×40 and the fill (without crop) covers 40×40: 80×40
        #expect(webp.status == 0 && jpeg.status == 0, "\(webp.stderr) \(jpeg.stderr)")
        let webpName = try #require(try directory.files(in: "webp").first)
        let jpegName = try #require(try directory.files(in: "jpeg").first)
        #expect(webpName.hasSuffix(".webp") && jpegName.hasSuffix(".jpg"))
        let webpData = try Data(contentsOf: directory.url.appendingPathComponent("webp/\(webpName)"))
        #expect(AssetType(webpData) == .webp)
        let webpImage = try Images.decode(directory.url.appendingPathComponent("webp/\(webpName)"))
        let jpegImage = try Images.decode(directory.url.appendingPathComponent("jpeg/\(jpegName)"))
        #expect((webpImage.width, webpImage.height) == (40, 40))
        #expect((jpegImage.width, jpegImage.height) == (80, 40))
    }

    @Test func fetchesOverHTTPAndCoalescesRepeatedURLs() async throws {
        // Given a server with one JPEG
        let server = try LoopbackHTTPServer(routes: [
            "/photos/beach.jpg": .data(try Images.jpeg(width: 160, height: 80), headers: ["Content-Type": "image/jpeg"])
        ])
        defer { server.shutdown() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = server.url("/photos/beach.jpg").absoluteString

        for loader in ["curl", "urlsession"] {
            // When fetching the same URL three times in one run, resized to a width of 40
            let result = try await NukeProcess.run(
                ["fetch", url, url, url, "--resize", "40x", "--loader", loader, "-o", loader], in: directory.url)

            // Then one file is written, 40×20, and the three requests shared one download and one decode
            #expect(result.status == 0, "\(result.stderr)")
            let names = try directory.files(in: loader)
            #expect(names.count == 1 && names[0].hasPrefix("beach-"))
            let image = try Images.decode(directory.url.appendingPathComponent("\(loader)/\(names[0])"))
            #expect((image.width, image.height) == (40, 20))
            #expect(result.stdout.contains("requests            3"))
            #expect(result.stdout.contains("loads               1"))
            #expect(result.stdout.contains("decodes             1"))
        }
        #expect(server.requests(for: "/photos/beach.jpg").count == 2)
    }

    @Test func failuresNameTheirInputAndCauseAndSetTheExitStatus() async throws {
        // Given a good file, a corrupt JPEG, a missing file, a 404 URL and an unsupported scheme
        let server = try LoopbackHTTPServer(routes: [:])
        defer { server.shutdown() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(try Images.png(width: 10, height: 10), to: "good.png")
        try directory.write(try Images.jpeg(width: 64, height: 64).prefix(200), to: "corrupt.jpg")
        let missingURL = server.url("/missing.png").absoluteString

        // When fetching them together
        let result = try await NukeProcess.run(
            ["fetch", "good.png", "corrupt.jpg", "nowhere.png", missingURL, "ftp://example.com/a.png", "-o", "out"],
            in: directory.url)

        // Then the exit status is 1, the good file is written and each failure names its input and the cause
        #expect(result.status == 1)
        #expect(try directory.files(in: "out").count == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("error: corrupt.jpg: ") && $0.contains("JPEG") })
        #expect(lines.contains { $0.hasPrefix("error: nowhere.png: no such file") })
        #expect(lines.contains { $0.hasPrefix("error: \(missingURL): ") && $0.contains("404") })
        #expect(lines.contains { $0.hasPrefix("error: ftp://example.com/a.png: unsupported URL scheme") })
        #expect(result.stdout.contains("errors              4"))
    }

    @Test func wrongCommandLinesExitWithUsageStatus() async throws {
        let unknownOption = try await NukeProcess.run(["fetch", "a.png", "--bogus"])
        let noInputs = try await NukeProcess.run(["fetch"])
        let badResize = try await NukeProcess.run(["fetch", "a.png", "--resize", "12by4"])
        let unknownCommand = try await NukeProcess.run(["frobnicate"])

        #expect(unknownOption.status == 64 && unknownOption.stderr.contains("unknown option '--bogus'"))
        #expect(noInputs.status == 64 && noInputs.stderr.contains("no inputs"))
        #expect(badResize.status == 64 && badResize.stderr.contains("--resize"))
        #expect(unknownCommand.status == 64 && unknownCommand.stderr.contains("unknown command 'frobnicate'"))
    }
}
