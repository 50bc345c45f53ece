import ColorLCMS
import DecoderJXL
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// `ImageEncoders.JXL` labels the samples with a kept profile (the `.keepOriginal` policy), so the file decodes
/// back to the same colours, converted to sRGB as the original would be.
@Suite struct JXLKeptProfileTests {
    /// A 48×32 opaque image of saturated gradients carrying `profile`.
    func source(_ profile: ColorProfile?) throws -> PlatformImage {
        var rgba: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<48 { rgba += [UInt8(x * 5), UInt8(255 - y * 7), UInt8((x * y) % 256), 255] }
        }
        var image = try makeImage(width: 48, height: 32, rgba: rgba, opaque: true)
        image.colorProfile = profile
        return image
    }

    /// `image` in sRGB by the converter (the pipeline's default policy).
    func inSRGB(_ image: PlatformImage) throws -> PlatformImage {
        try LCMSColorConverter().convertToSRGB(image)
    }

    @Test("a lossless file keeps an ICC profile: the decoded image converts to the original's sRGB pixels exactly")
    func losslessICC() throws {
        let original = try source(.icc(try fixture("DisplayP3.icc")))
        let data = try #require(ImageEncoders.JXL(isLossless: true).encode(original))

        let decoded = try ImageDecoders.JXL().decode(data).image

        #expect(decoded.colorProfile != nil)
        #expect(decoded.bytes == original.bytes)
        #expect(try inSRGB(decoded).bytes == (try inSRGB(original).bytes))
    }

    @Test(
        "a lossy file with a kept profile converts to nearly the original's sRGB pixels",
        arguments: [
            ColorProfile.cicp(
                .init(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true)),
            nil,
        ])
    func lossy(_ cicp: ColorProfile?) throws {
        for profile in [try ColorProfile.icc(fixture("DisplayP3.icc")), try ColorProfile.icc(fixture("AdobeRGB.icc"))]
            + (cicp.map { [$0] } ?? [])
        {
            let original = try source(profile)
            let data = try #require(ImageEncoders.JXL(quality: 0.95).encode(original))

            let decoded = try ImageDecoders.JXL().decode(data).image

            // Within a few levels on average (lossy), where labelling the P3 samples sRGB would be off by up to 50
            #expect(meanColorDifference(try inSRGB(decoded).bytes, try inSRGB(original).bytes) < 3, "\(profile)")
        }
    }

    @Test("an animation of frames with a kept profile is labelled with it, and every frame decodes carrying it")
    func animation() throws {
        let profile = ColorProfile.icc(try fixture("DisplayP3.icc"))
        let frames = [try source(profile), try source(profile)]
        let animation = try FrameListAnimation(frames: frames, durations: [0.1, 0.1])
        let data = try #require(try ImageEncoders.JXL(isLossless: true).encode(animation))

        var count = 0
        try ImageDecoders.JXL.Animation(data: data).forEachFrame { frame throws in
            count += 1
            #expect(frame.image.colorProfile != nil)
            // Frames come with an alpha channel (lcms2's premultiplied transform), the source is opaque (the
            // tables): within a level of each other.
            #expect(maximumColorDifference(try inSRGB(frame.image).bytes, try inSRGB(frames[0]).bytes) <= 1)
        }
        #expect(count == 2)
    }

    @Test("without a profile the file is sRGB and decodes without one")
    func noProfile() throws {
        let original = try source(nil)
        let data = try #require(ImageEncoders.JXL(isLossless: true).encode(original))

        let decoded = try ImageDecoders.JXL().decode(data).image

        #expect(decoded.colorProfile == nil)
        #expect(decoded.bytes == original.bytes)
    }
}
