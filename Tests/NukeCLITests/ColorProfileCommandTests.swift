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
}
