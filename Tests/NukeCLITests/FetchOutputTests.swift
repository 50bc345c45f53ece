import Foundation
import Nuke
import NukeTestKit
import Testing

@testable import NukeCLI

@Suite struct FetchOutputTests {
    @Test func anOutputPathThatIsAFileOrUnwritableFailsWithASentence() async throws {
        // Given a regular file where the output directory should go, and a directory no one may write into
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(try Images.png(width: 10, height: 10), to: "good.png")
        let file = try directory.write(Data("not a directory".utf8), to: "taken")

        // When fetching into the file, below the file, and below /proc/1
        let intoFile = try await NukeProcess.run(["fetch", "good.png", "-o", "taken"], in: directory.url)
        let belowFile = try await NukeProcess.run(["fetch", "good.png", "-o", "taken/out"], in: directory.url)
        let unwritable = try await NukeProcess.run(["fetch", "good.png", "-o", "/proc/1/nuke-out"], in: directory.url)

        // Then each exits with 1 and says in one sentence which path can't be written and why
        #expect(intoFile.status == 1 && belowFile.status == 1 && unwritable.status == 1)
        #expect(intoFile.stderr == "nuke: cannot write to \(file.path): not a directory\n")
        #expect(belowFile.stderr == "nuke: cannot write to \(file.path)/out: not a directory\n")
        // (the reason is the system's: "permission denied" or "operation not permitted", depending on the user)
        #expect(unwritable.stderr.hasPrefix("nuke: cannot write to /proc/1/nuke-out: "))
        #expect(unwritable.stderr.hasSuffix("\n") && unwritable.stderr.split(separator: "\n").count == 1)
        for result in [intoFile, belowFile, unwritable] {
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && result.stdout.isEmpty)
        }
        #expect(try Data(contentsOf: file) == Data("not a directory".utf8))
    }

    @Test func svgIsDrawnAtTheRequestedSizeWhileRasterImagesAreNeverUpscaled() async throws {
        // Given a 24×24 SVG and a 20×10 PNG
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">\
            <rect width="24" height="24" fill="#c00"/></svg>
            """
        try directory.write(Data(svg.utf8), to: "icon.svg")
        try directory.write(try Images.png(width: 20, height: 10), to: "small.png")

        // When resizing both to 96×96 (fit) and to a width of 48
        let fit = try await NukeProcess.run(
            ["fetch", "icon.svg", "small.png", "--resize", "96x96", "-o", "fit"], in: directory.url)
        let width = try await NukeProcess.run(
            ["fetch", "icon.svg", "small.png", "--resize", "48x", "-o", "width"], in: directory.url)
        let help = try await NukeProcess.run(["fetch", "--help"])

        // Then the SVG is drawn at the requested size, the PNG keeps its own, and the help says exactly that
        #expect(fit.status == 0 && width.status == 0, "\(fit.stderr) \(width.stderr)")
        for (output, svgSide) in [("fit", 96), ("width", 48)] {
            let names = try directory.files(in: output)
            let icon = try Images.decode(
                directory.url.appendingPathComponent("\(output)/\(try #require(names.first { $0.hasPrefix("icon-") }))")
            )
            let small = try Images.decode(
                directory.url.appendingPathComponent(
                    "\(output)/\(try #require(names.first { $0.hasPrefix("small-") }))"))
            #expect((icon.width, icon.height) == (svgSide, svgSide))
            #expect((small.width, small.height) == (20, 10))
        }
        #expect(help.stdout.contains("Never upscales a raster image"))
        #expect(help.stdout.contains("An SVG is a vector\n") && help.stdout.contains("drawn at the requested size"))
    }

    @Test func anAnimatedWebPWrittenAsAStillImageIsNamedInAWarningAndAsWebPStaysAnimated() async throws {
        // Given an animated WebP (8 frames) and a still PNG
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(AnimatedWebPSample.data, to: "spinner.webp")
        try directory.write(try Images.png(width: 10, height: 10), to: "still.png")

        // When writing both as PNG, and the animation resized as WebP
        let plain = try await NukeProcess.run(["fetch", "spinner.webp", "still.png", "-o", "out"], in: directory.url)
        let resized = try await NukeProcess.run(
            ["fetch", "spinner.webp", "--resize", "32x32", "--format", "webp", "-o", "small"], in: directory.url)
        let notWritten = try await NukeProcess.run(["fetch", "spinner.webp"], in: directory.url)

        // Then the PNG of the animated input gets a warning naming it; the WebP keeps the animation (every frame
        // resized, no warning); the still image and a run that writes nothing get none either
        let warning = "warning: spinner.webp: animated WebP (8 frames): only the first frame was written"
        #expect(plain.status == 0 && resized.status == 0, "\(plain.stderr) \(resized.stderr)")
        #expect(plain.stderr.split(separator: "\n").map(String.init) == [warning])
        #expect(!resized.stderr.contains("warning"))
        let name = try #require(try directory.files(in: "small").first)
        let animation = try ImageDecoders.WebP.Animation(
            data: try Data(contentsOf: directory.url.appendingPathComponent("small/\(name)")))
        #expect(animation.frameCount == 8 && animation.loopCount == 0)
        #expect(animation.canvasWidth == 32 && animation.canvasHeight == 32)
        #expect(animation.frameDurations.allSatisfy { abs($0 - 0.09) < 1e-9 })
        #expect(notWritten.status == 0 && !notWritten.stderr.contains("warning"))
        #expect(try directory.files(in: "out").count == 2)
    }
}
