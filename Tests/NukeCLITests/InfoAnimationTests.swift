import Foundation
import Nuke
import NukeTestKit
import Testing

@testable import NukeCLI

/// `nuke info` on animated files: one code path (``ImageDecoders/Default/animation(for:)``) for GIF and WebP.
@Suite struct InfoAnimationTests {
    /// A 2×1 GIF of three 1×1 frames with delays of 0, 20 and 50 hundredths, repeating once (two plays).
    static var animatedGIF: Data {
        func frame(left: UInt8, delay: UInt8) -> [UInt8] {
            [0x21, 0xF9, 4, 0x04, delay, 0, 0, 0, 0x2C, left, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        }
        let header = Array("GIF89a".utf8) + [2, 0, 1, 0, 0x80, 0, 0, 255, 0, 0, 0, 0, 255]
        let loop = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 1, 0, 0]
        return Data(
            header + loop + frame(left: 0, delay: 0) + frame(left: 1, delay: 20) + frame(left: 0, delay: 50) + [0x3B])
    }

    @Test func infoShowsTheFramesLoopCountAndDurationsOfAnAnimatedGIF() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(Self.animatedGIF, to: "anim.gif")

        let info = try await NukeProcess.run(["info", "anim.gif"], in: directory.url)

        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("com.compuserve.gif (image/gif)"))
        #expect(info.stdout.contains(Formatting.row("pixel size", "2×1")))
        #expect(info.stdout.contains(Formatting.row("frames", "3")))
        #expect(info.stdout.contains(Formatting.row("loop", "2 times")))
        // The zero delay is shown as browsers show it: 100 ms.
        #expect(info.stdout.contains("100, 200, 500 ms"))
    }

    @Test func infoShowsTheFramesOfAnAnimatedWebP() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(AnimatedWebPSample.data, to: "spinner.webp")

        let info = try await NukeProcess.run(["info", "spinner.webp"], in: directory.url)

        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains(Formatting.row("frames", "8")))
        #expect(info.stdout.contains(Formatting.row("loop", "forever")))
        #expect(info.stdout.contains("90, 90, 90, 90, 90, 90, 90, 90 ms"))
    }

    @Test func anAnimatedGIFWrittenAsAStillImageIsNamedInAWarning() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(Self.animatedGIF, to: "anim.gif")

        let result = try await NukeProcess.run(["fetch", "anim.gif", "-o", "out"], in: directory.url)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("animated GIF (3 frames): only the first frame was written"))
    }
}

@Suite struct AVIFCommandTests {
    @Test func fetchWritesAVIFAndInfoDescribesIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(try Images.png(width: 24, height: 16), to: "small.png")

        let fetch = try await NukeProcess.run(
            ["fetch", "small.png", "--format", "avif", "-o", "out"], in: directory.url)
        let name = try #require(try directory.files(in: "out").first)
        let info = try await NukeProcess.run(["info", "out/\(name)"], in: directory.url)

        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(name.hasSuffix(".avif"))
        #expect(AssetType(try Data(contentsOf: directory.url.appendingPathComponent("out/\(name)"))) == .avif)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("public.avif (image/avif)"))
        #expect(info.stdout.contains(Formatting.row("pixel size", "24×16")))
        #expect(info.stdout.contains(Formatting.row("bit depth", "8 (decoded to 8)")))
    }
}

@Suite struct AnimatedTranscodingTests {
    /// A 16×16 GIF of three solid frames (red, blue, red) of 100, 200 and 300 ms, playing twice.
    static var solidFramesGIF: Data {
        func frame(index: UInt16, delay: UInt8) -> [UInt8] {
            // LZW with a minimum code size of 2, all codes 3 bits: (clear, i, i) for every two pixels, then end.
            let codes = Array(repeating: [UInt16(4), index, index], count: 128).joined() + [5]
            var bytes = [UInt8](repeating: 0, count: (codes.count * 3 + 7) / 8)
            for (position, code) in codes.enumerated() {
                for bit in 0..<3 where code >> bit & 1 == 1 {
                    bytes[(position * 3 + bit) / 8] |= 1 << ((position * 3 + bit) % 8)
                }
            }
            let blocks = stride(from: 0, to: bytes.count, by: 255).flatMap { start in
                let chunk = bytes[start..<min(start + 255, bytes.count)]
                return [UInt8(chunk.count)] + chunk
            }
            return [0x21, 0xF9, 4, 0x04, delay, 0, 0, 0, 0x2C, 0, 0, 0, 0, 16, 0, 16, 0, 0, 2] + blocks + [0]
        }
        let header = Array("GIF89a".utf8) + [16, 0, 16, 0, 0x80, 0, 0, 255, 0, 0, 0, 0, 255]
        let loop = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 1, 0, 0]
        return Data(
            header + loop + frame(index: 0, delay: 10) + frame(index: 1, delay: 20) + frame(index: 0, delay: 30)
                + [0x3B])
    }

    @Test func anAnimatedGIFFetchedAsWebPKeepsItsFramesDurationsAndLoopCount() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(Self.solidFramesGIF, to: "anim.gif")

        let result = try await NukeProcess.run(
            ["fetch", "anim.gif", "--format", "webp", "-o", "out"], in: directory.url)

        #expect(result.status == 0 && !result.stderr.contains("warning"), "\(result.stderr)")
        let name = try #require(try directory.files(in: "out").first)
        let webp = try ImageDecoders.WebP.Animation(
            data: try Data(contentsOf: directory.url.appendingPathComponent("out/\(name)")))
        let gif = try ImageDecoders.GIF.Animation(data: Self.solidFramesGIF)
        #expect(gif.frameCount == 3 && gif.loopCount == 2)
        #expect(webp.frameCount == 3 && webp.loopCount == gif.loopCount)
        #expect(webp.frameDurations == gif.frameDurations)
        var colors: [PlatformImage.RGBA?] = []
        try webp.forEachFrame { colors.append($0.image.pixel(x: 8, y: 8)) }
        // Lossy WebP at quality 0.85: within a few levels of pure red and blue.
        let red = PlatformImage.RGBA(r: 255, g: 0, b: 0)
        let blue = PlatformImage.RGBA(r: 0, g: 0, b: 255)
        for (color, expected) in zip(colors, [red, blue, red]) {
            #expect(ImageComparison.isClose(color, to: expected, tolerance: 8), "\(String(describing: color))")
        }
    }

    @Test func anAnimatedGIFFetchedAsAVIFBecomesASequence() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(Self.solidFramesGIF, to: "anim.gif")

        let result = try await NukeProcess.run(
            ["fetch", "anim.gif", "--format", "avif", "-o", "out"], in: directory.url)

        #expect(result.status == 0 && !result.stderr.contains("warning"), "\(result.stderr)")
        let name = try #require(try directory.files(in: "out").first)
        let avif = try ImageDecoders.AVIF.Animation(
            data: try Data(contentsOf: directory.url.appendingPathComponent("out/\(name)")))
        #expect(avif.frameCount == 3 && avif.frameDurations == [0.1, 0.2, 0.3])
        let colors = try (0..<3).map { try avif.frame(at: $0).pixel(x: 8, y: 8) }
        let red = PlatformImage.RGBA(r: 255, g: 0, b: 0)
        let blue = PlatformImage.RGBA(r: 0, g: 0, b: 255)
        for (color, expected) in zip(colors, [red, blue, red]) {
            #expect(ImageComparison.isClose(color, to: expected, tolerance: 12), "\(String(describing: color))")
        }
    }
}

@Suite struct JXLCommandTests {
    @Test func fetchWritesJXLAndInfoDescribesIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(try Images.png(width: 24, height: 16), to: "small.png")

        let fetch = try await NukeProcess.run(
            ["fetch", "small.png", "--format", "jxl", "-o", "out"], in: directory.url)
        let name = try #require(try directory.files(in: "out").first)
        let info = try await NukeProcess.run(["info", "out/\(name)"], in: directory.url)

        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(name.hasSuffix(".jxl"))
        #expect(AssetType(try Data(contentsOf: directory.url.appendingPathComponent("out/\(name)"))) == .jxl)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("public.jpeg-xl (image/jxl)"))
        #expect(info.stdout.contains(Formatting.row("pixel size", "24×16")))
    }

    @Test func anAnimatedGIFFetchedAsJXLStaysAnimated() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(AnimatedTranscodingTests.solidFramesGIF, to: "anim.gif")

        let result = try await NukeProcess.run(
            ["fetch", "anim.gif", "--format", "jxl", "-o", "out"], in: directory.url)

        #expect(result.status == 0 && !result.stderr.contains("warning"), "\(result.stderr)")
        let name = try #require(try directory.files(in: "out").first)
        let jxl = try ImageDecoders.JXL.Animation(
            data: try Data(contentsOf: directory.url.appendingPathComponent("out/\(name)")))
        #expect(jxl.frameCount == 3 && jxl.loopCount == 2 && jxl.frameDurations == [0.1, 0.2, 0.3])
        let colors = try (0..<3).map { try jxl.frame(at: $0).pixel(x: 8, y: 8) }
        let red = PlatformImage.RGBA(r: 255, g: 0, b: 0)
        let blue = PlatformImage.RGBA(r: 0, g: 0, b: 255)
        for (color, expected) in zip(colors, [red, blue, red]) {
            #expect(ImageComparison.isClose(color, to: expected, tolerance: 12), "\(String(describing: color))")
        }
    }

    @Test func anUnknownFormatNamesJXLAmongTheChoices() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let result = try await NukeProcess.run(["fetch", "x.png", "--format", "bmp"], in: directory.url)

        #expect(result.status == 64)
        #expect(result.stderr.contains("use png, jpeg, webp, avif or jxl"))
    }
}
