import DecoderAVIF
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// An AVIF sequence's `colr` box: written by the sequence encoder from the frames' profile, and given to every
/// decoded frame, as the still decode gives it to the image.
@Suite("AVIF sequence colour profiles")
struct AVIFAnimationColorProfileTests {
    /// An ICC profile of the ColorLCMS tests' fixtures.
    static func profile(_ name: String) throws -> Data {
        try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../ColorLCMSTests/Fixtures/\(name)").standardized)
    }

    /// Three 32×32 opaque frames of different colours, carrying `profile`.
    static func frames(profile: ColorProfile?) throws -> FrameListAnimation {
        let colors: [[UInt8]] = [[200, 100, 50, 255], [40, 180, 90, 255], [70, 60, 210, 255]]
        let frames = try colors.map { color in
            var image = try PlatformImage(
                width: 32, height: 32, rgba: Array([[UInt8]](repeating: color, count: 32 * 32).joined()))
            image.colorProfile = profile
            return image
        }
        return try FrameListAnimation(frames: frames, durations: [0.1, 0.2, 0.3], loopCount: 0)
    }

    @Test(
        "every frame of a sequence with an ICC colr box carries its profile",
        arguments: ["DisplayP3.icc", "AdobeRGB.icc"])
    func framesCarryTheICCProfile(name: String) throws {
        // Given an AVIF sequence made from frames in Display P3 (or Adobe RGB)
        let profile = ColorProfile.icc(try Self.profile(name))
        let data = try #require(
            try ImageEncoders.AVIF(quality: 0.9, speed: 10).encode(try Self.frames(profile: profile)))

        // When it is decoded as a still and as an animation
        let still = try ImageDecoders.AVIF().decode(data).image
        let animation = try ImageDecoders.AVIF.Animation(data: data)
        var profiles: [ColorProfile?] = []
        try animation.forEachFrame { profiles.append($0.image.colorProfile) }

        // Then the still and every frame carry the profile
        #expect(animation.frameCount == 3)
        #expect(still.colorProfile == profile)
        #expect(profiles == [profile, profile, profile])
    }

    @Test("every frame of a sequence with an nclx colr box carries its CICP description")
    func framesCarryTheCICP() throws {
        // Given a sequence whose frames are described as Display P3 by CICP (primaries 12, sRGB's transfer)
        let cicp = ColorProfile.cicp(
            .init(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 6, isFullRange: true))
        let data = try #require(try ImageEncoders.AVIF(quality: 0.9, speed: 10).encode(try Self.frames(profile: cicp)))

        // When it is decoded
        let still = try ImageDecoders.AVIF().decode(data).image
        let animation = try ImageDecoders.AVIF.Animation(data: data)

        // Then every frame has the still's description
        let expected = try #require(still.colorProfile)
        guard case let .cicp(value) = expected else {
            Issue.record("expected a CICP description, got \(expected)")
            return
        }
        #expect(value.colorPrimaries == 12 && value.transferCharacteristics == 13)
        try animation.forEachFrame { #expect($0.image.colorProfile == expected, "frame \($0.index)") }
    }

    @Test("frames of a sequence without a profile have none")
    func noProfile() throws {
        let data = try #require(try ImageEncoders.AVIF(quality: 0.9, speed: 10).encode(try Self.frames(profile: nil)))

        let animation = try ImageDecoders.AVIF.Animation(data: data)

        try animation.forEachFrame { #expect($0.image.colorProfile == nil) }
    }
}
