import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// An animated WebP's `ICCP` chunk: written by the animation encoder from the frames' profile, and given to every
/// decoded frame, as the still decode gives it to the image.
@Suite("WebP animation colour profiles")
struct WebPAnimationColorProfileTests {
    /// Display P3's ICC profile, the ColorLCMS tests' fixture.
    static func displayP3() throws -> Data {
        try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../ColorLCMSTests/Fixtures/DisplayP3.icc").standardized)
    }

    /// Three 24×16 opaque frames of different colours, carrying `profile`.
    static func frames(profile: ColorProfile?) throws -> FrameListAnimation {
        let colors: [[UInt8]] = [[200, 100, 50, 255], [40, 180, 90, 255], [70, 60, 210, 255]]
        let frames = try colors.map { color in
            var image = try PlatformImage(
                width: 24, height: 16, rgba: Array([[UInt8]](repeating: color, count: 24 * 16).joined()))
            image.colorProfile = profile
            return image
        }
        return try FrameListAnimation(frames: frames, durations: [0.1, 0.2, 0.3], loopCount: 0)
    }

    @Test("every frame of an animation with an ICCP chunk carries its profile")
    func framesCarryTheProfile() throws {
        // Given an animated WebP made from frames in Display P3
        let profile = ColorProfile.icc(try Self.displayP3())
        let data = try #require(try ImageEncoders.WebP(lossless: true).encode(try Self.frames(profile: profile)))

        // When it is decoded as a still and as an animation
        let still = try ImageDecoders.WebP().decode(data).image
        let animation = try ImageDecoders.WebP.Animation(data: data)
        var decoded: [PlatformImage] = []
        try animation.forEachFrame { decoded.append($0.image) }

        // Then the still and every frame carry the profile, and the pixels are the frames' own (lossless)
        #expect(animation.frameCount == 3)
        #expect(animation.colorProfile == profile)
        #expect(still.colorProfile == profile)
        #expect(decoded.count == 3)
        let source = try Self.frames(profile: profile).frames
        for (index, frame) in decoded.enumerated() {
            #expect(frame.colorProfile == profile, "frame \(index)")
            #expect(try #require(ImageComparison.maximumDifference(frame, source[index])) == 0, "frame \(index)")
        }
        #expect(try animation.frame(at: 2).colorProfile == profile)
    }

    @Test("frames of an animation without ICCP have no profile")
    func noProfile() throws {
        let data = try #require(try ImageEncoders.WebP(lossless: true).encode(try Self.frames(profile: nil)))

        let animation = try ImageDecoders.WebP.Animation(data: data)

        #expect(animation.colorProfile == nil)
        try animation.forEachFrame { #expect($0.image.colorProfile == nil) }
    }
}
