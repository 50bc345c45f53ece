import Foundation
import Nuke
import NukeTestKit
import Testing

@testable import NukeCLI

/// `nuke info` shows an image's colour profile; `nuke fetch` converts it to sRGB unless `--keep-profile`.
@Suite struct ColorProfileCommandTests {
    static let displayP3 = ColorProfile.cicp(
        .init(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true))

    /// A PNG of the gradient whose cICP chunk says Display P3.
    static func displayP3PNG() throws -> Data {
        var image = try Images.gradient(width: 24, height: 16)
        image.colorProfile = displayP3
        return try #require(ImageEncoders.PNG().encode(image))
    }

    @Test func infoShowsTheColourProfile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(try Self.displayP3PNG(), to: "p3.png")
        try directory.write(try Images.png(width: 4, height: 4), to: "plain.png")

        let p3 = try await NukeProcess.run(["info", "p3.png"], in: directory.url)
        let plain = try await NukeProcess.run(["info", "plain.png"], in: directory.url)

        #expect(p3.status == 0, "\(p3.stderr)")
        #expect(
            p3.stdout.contains(
                Formatting.row(
                    "colour profile",
                    "CICP primaries 12 (Display P3), transfer 13 (sRGB), matrix 0, full range "
                        + "(converted to sRGB by nuke fetch)")))
        #expect(plain.stdout.contains(Formatting.row("colour profile", "none (sRGB)")))
    }

    @Test func fetchConvertsToSRGBByDefaultAndKeepsTheProfileWhenAsked() async throws {
        // Given a Display P3 PNG
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try directory.write(try Self.displayP3PNG(), to: "p3.png")

        // When it is fetched with and without --keep-profile
        let converted = try await NukeProcess.run(["fetch", "p3.png", "-o", "srgb"], in: directory.url)
        let kept = try await NukeProcess.run(["fetch", "p3.png", "-o", "kept", "--keep-profile"], in: directory.url)

        // Then the default output is sRGB (no profile, other pixels); the kept one has the source's profile and pixels
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(kept.status == 0, "\(kept.stderr)")
        let original = try Images.decode(source)
        let srgb = try Images.decode(
            directory.url.appendingPathComponent("srgb/" + (try directory.files(in: "srgb"))[0]))
        let same = try Images.decode(
            directory.url.appendingPathComponent("kept/" + (try directory.files(in: "kept"))[0]))
        #expect(srgb.colorProfile == nil)
        #expect(srgb.bytes != original.bytes)
        #expect(same.colorProfile == Self.displayP3)
        #expect(same.bytes == original.bytes)
    }

    /// An animated WebP of three gradients with Display P3's ICC profile (the ColorLCMS tests' fixture) embedded.
    static func displayP3AnimatedWebP() throws -> (data: Data, profile: ColorProfile) {
        let profile = ColorProfile.icc(
            try Data(
                contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .appendingPathComponent("../ColorLCMSTests/Fixtures/DisplayP3.icc").standardized))
        let frames = try (0..<3).map { index in
            var rgba: [UInt8] = []
            for y in 0..<16 {
                for x in 0..<24 {
                    rgba += [UInt8(40 + x * 8 + index * 10), UInt8(30 + y * 10), UInt8(220 - x * 6 - index * 20), 255]
                }
            }
            var image = try PlatformImage(width: 24, height: 16, rgba: rgba)
            image.colorProfile = profile
            return image
        }
        let animation = try FrameListAnimation(frames: frames, durations: [0.1, 0.1, 0.1])
        return (try #require(try ImageEncoders.WebP(lossless: true).encode(animation)), profile)
    }

    @Test func fetchConvertsEveryFrameOfAnAnimationUnlessKeepProfile() async throws {
        // Given an animated WebP in Display P3
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (data, profile) = try Self.displayP3AnimatedWebP()
        try directory.write(data, to: "p3.webp")

        // When it is fetched as an animated WebP with and without --keep-profile
        let converted = try await NukeProcess.run(
            ["fetch", "p3.webp", "--format", "webp", "-o", "srgb"], in: directory.url)
        let kept = try await NukeProcess.run(
            ["fetch", "p3.webp", "--format", "webp", "-o", "kept", "--keep-profile"], in: directory.url)

        // Then the default output's frames are lcms2's sRGB conversion of the source's, with no profile; the kept
        // one's frames are the source's, with its profile embedded (lossy WebP at 0.85: compared by PSNR)
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(kept.status == 0, "\(kept.stderr)")
        let source = try ImageDecoders.WebP.Animation(data: data)
        let srgb = try ImageDecoders.WebP.Animation(
            data: try Data(
                contentsOf: directory.url.appendingPathComponent("srgb/" + (try directory.files(in: "srgb"))[0])))
        let same = try ImageDecoders.WebP.Animation(
            data: try Data(
                contentsOf: directory.url.appendingPathComponent("kept/" + (try directory.files(in: "kept"))[0])))
        #expect(srgb.frameCount == 3 && same.frameCount == 3)
        #expect(srgb.colorProfile == nil && same.colorProfile == profile)
        let converter = LCMSColorConverter()
        for index in 0..<3 {
            let original = try source.frame(at: index)
            let expected = try converter.convertToSRGB(original)
            let made = try srgb.frame(at: index)
            let toConverted = try #require(ImageComparison.psnr(made, expected))
            let toOriginal = try #require(ImageComparison.psnr(made, original))
            #expect(
                toConverted > 30 && toConverted > toOriginal + 3, "frame \(index): \(toConverted) vs \(toOriginal) dB")
            let keptFrame = try same.frame(at: index)
            #expect(keptFrame.colorProfile == profile)
            let keptPSNR = try #require(ImageComparison.psnr(keptFrame, original))
            #expect(keptPSNR > 30, "frame \(index): \(keptPSNR) dB")
        }
    }
}
