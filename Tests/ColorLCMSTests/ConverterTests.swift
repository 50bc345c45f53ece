import ColorLCMS
import DecoderJPEG
import Foundation
import NukeCore
import Testing

@Suite struct ConverterTests {
    /// A 4×2 image: saturated colours, a mid grey, and (unless opaque) translucent and transparent pixels.
    func sample(opaque: Bool) throws -> PlatformImage {
        let alphaA: UInt8 = opaque ? 255 : 128
        let alphaB: UInt8 = opaque ? 255 : 0
        return try makeImage(
            width: 4, height: 2,
            rgba: [
                255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 128, 128, 128, 255,
                250, 30, 20, alphaA, 20, 200, 40, alphaA, 90, 90, 90, alphaB, 10, 20, 30, alphaB,
            ], opaque: opaque)
    }

    @Test("a second image with the same profile reuses the transform")
    func cacheHit() throws {
        // Given a converter and two images with the same profile
        let converter = LCMSColorConverter()
        let profile = ColorProfile.icc(try fixture("DisplayP3.icc"))
        var first = try sample(opaque: true)
        first.colorProfile = profile
        var second = try makeImage(width: 1, height: 1, rgba: [1, 2, 3, 255], opaque: true)
        second.colorProfile = profile

        // When both are converted
        _ = try converter.convertToSRGB(first)
        let converted = try converter.convertToSRGB(second)

        // Then one transform served both
        #expect(converter.cacheStatistics.transformsCreated == 1)
        #expect(converter.cacheStatistics.hits == 1)
        #expect(converted.colorProfile == nil)
    }

    @Test("premultiplied pixels keep their alpha, and transparent pixels stay zero")
    func premultiplied() throws {
        // Given a translucent image with the Adobe RGB profile
        var image = try sample(opaque: false)
        image.colorProfile = .icc(try fixture("AdobeRGB.icc"))

        // When it is converted
        let converted = try LCMSColorConverter().convertToSRGB(image)

        // Then alpha is unchanged, colour never exceeds alpha, and the opaque pixels match the opaque path
        let bytes = converted.bytes
        for index in stride(from: 0, to: bytes.count, by: 4) {
            #expect(bytes[index + 3] == image.bytes[index + 3])
            #expect(bytes[index] <= bytes[index + 3] && bytes[index + 1] <= bytes[index + 3])
        }
        #expect(Array(bytes[24..<32]) == [0, 0, 0, 0, 0, 0, 0, 0])
        var opaque = try sample(opaque: true)
        opaque.colorProfile = image.colorProfile
        let opaqueConverted = try LCMSColorConverter().convertToSRGB(opaque)
        #expect(meanColorDifference(Array(bytes[0..<16]), Array(opaqueConverted.bytes[0..<16])) <= 1)
        #expect(bytes[0..<16] != image.bytes[0..<16])
    }

    @Test(
        "opaque images (matrix/TRC tables) convert as lcms2's own transform does, within a level",
        arguments: ["DisplayP3.icc", "AdobeRGB.icc", "ProPhotoRGB.icc"])
    func opaqueMatchesLCMS(_ profileName: String) throws {
        // Given random colours, dark and saturated ones included, once marked opaque and once not
        var generator = SystemRandomNumberGenerator()
        var rgba: [UInt8] = []
        for _ in 0..<(64 * 64) {
            rgba += [
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...40, using: &generator), 255,
            ]
        }
        var opaque = try makeImage(width: 64, height: 64, rgba: rgba, opaque: true)
        opaque.colorProfile = .icc(try fixture(profileName))
        var general = opaque
        general.isOpaque = false  // lcms2's premultiplied transform; alpha 255 leaves colours as they are.

        // When both are converted
        let converter = LCMSColorConverter()
        let fast = try converter.convertToSRGB(opaque)
        let reference = try converter.convertToSRGB(general)

        // Then every channel is within a level
        #expect(maximumColorDifference(fast.bytes, reference.bytes) <= 1)
        #expect(fast.bytes != opaque.bytes)
    }

    @Test(
        "the tables match lcms2 on a grid of the whole RGB cube, out-of-gamut colours and extremes included",
        arguments: ["DisplayP3.icc", "AdobeRGB.icc", "ProPhotoRGB.icc"])
    func wholeCube(profileName: String) throws {
        // Given every combination of the levels 0, 5, …, 255 (52³ pixels), opaque, and the same as lcms2's input
        let levels = Array(stride(from: 0, through: 255, by: 5)).map(UInt8.init)
        var rgba: [UInt8] = []
        rgba.reserveCapacity(levels.count * levels.count * levels.count * 4)
        for red in levels {
            for green in levels {
                for blue in levels { rgba += [red, green, blue, 255] }
            }
        }
        let width = levels.count * levels.count
        var opaque = try makeImage(width: width, height: levels.count, rgba: rgba, opaque: true)
        opaque.colorProfile = .icc(try fixture(profileName))
        var general = opaque
        general.isOpaque = false

        // When both are converted
        let converter = LCMSColorConverter()
        try converter.convertToSRGB(&opaque)
        try converter.convertToSRGB(&general)

        // Then every channel is within a level
        #expect(maximumColorDifference(opaque.bytes, general.bytes) <= 1)
    }

    @Test(
        "a large image, converted in bands on several threads, matches its rows converted alone",
        arguments: [true, false])
    func bands(opaque: Bool) throws {
        // Given a 2048×1024 image (two bands) with the Adobe RGB profile
        let (width, height) = (2048, 1024)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                rgba[index] = UInt8(x & 0xFF)
                rgba[index + 1] = UInt8(y & 0xFF)
                rgba[index + 2] = UInt8((x + y) & 0xFF)
                rgba[index + 3] = opaque ? 255 : UInt8(128 + (x & 0x7F))
            }
        }
        let profile = ColorProfile.icc(try fixture("AdobeRGB.icc"))
        var image = try makeImage(width: width, height: height, rgba: rgba, opaque: opaque)
        image.colorProfile = profile
        let converter = LCMSColorConverter()

        // When it is converted whole
        let converted = try converter.convertToSRGB(image).bytes

        // Then the rows at the ends and around the band boundary are those of the row converted alone
        for y in [0, 511, 512, 1023] {
            let start = y * width * 4
            var row = try PlatformImage(width: width, height: 1, rgba: Array(image.bytes[start..<(start + width * 4)]))
            row.isOpaque = opaque
            row.colorProfile = profile
            #expect(try converter.convertToSRGB(row).bytes == Array(converted[start..<(start + width * 4)]), "row \(y)")
        }
    }

    @Test("a CICP Display P3 description converts as the Display P3 ICC profile does")
    func cicpDisplayP3() throws {
        let converter = LCMSColorConverter()
        var viaCICP = try sample(opaque: true)
        viaCICP.colorProfile = .cicp(
            .init(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true))
        var viaICC = viaCICP
        viaICC.colorProfile = .icc(try fixture("DisplayP3.icc"))

        let fromCICP = try converter.convertToSRGB(viaCICP)
        let fromICC = try converter.convertToSRGB(viaICC)

        #expect(meanColorDifference(fromCICP.bytes, fromICC.bytes) <= 0.5)
        #expect(fromCICP.bytes != viaCICP.bytes)
    }

    @Test("CICP sRGB is returned untouched; BT.2020 with PQ is refused")
    func cicpOthers() throws {
        let converter = LCMSColorConverter()
        var srgb = try sample(opaque: true)
        srgb.colorProfile = .cicp(
            .init(colorPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 6, isFullRange: true))
        var pq = srgb
        let bt2100 = ColorProfile.CICP(
            colorPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 9, isFullRange: false)
        pq.colorProfile = .cicp(bt2100)

        let converted = try converter.convertToSRGB(srgb)

        #expect(converted.bytes == srgb.bytes)
        #expect(converted.colorProfile == nil)
        #expect(throws: LCMSColorConverter.Error.unsupportedCICP(bt2100)) { try converter.convertToSRGB(pq) }
    }

    @Test("an image nothing else shares is converted where its pixels are; a shared one is copied first")
    func inPlace() throws {
        // Given an opaque Display P3 image, and a second one sharing its pixels
        var image = try makeImage(
            width: 64, height: 32, rgba: (0..<(64 * 32 * 4)).map { UInt8($0 % 251) }, opaque: true)
        image.colorProfile = .icc(try fixture("DisplayP3.icc"))
        let address = image.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let converter = LCMSColorConverter()

        // When the unshared one is converted in place
        var unshared = image
        image = PlatformImage()  // `unshared` is now the only reference
        try converter.convertToSRGB(&unshared)

        // Then the pixels were written where they were
        #expect(unshared.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } == address)
        #expect(unshared.colorProfile == nil)

        // And a shared image keeps its pixels while its copy is converted
        let rgba = (0..<64).flatMap { _ -> [UInt8] in [200, 40, 90, 255] }
        var original = try makeImage(width: 8, height: 8, rgba: rgba, opaque: true)
        original.colorProfile = .icc(try fixture("DisplayP3.icc"))
        var copy = original
        try converter.convertToSRGB(&copy)
        #expect(original.bytes == rgba)
        #expect(copy.bytes != rgba)
    }

    @Test("a profile the converter refuses leaves the image as it was, profile included")
    func refusedLeavesTheImage() throws {
        var image = try sample(opaque: true)
        let icc = try fixture("DisplayP3.icc")
        image.colorProfile = .icc(icc.prefix(icc.count / 2))
        let before = image

        #expect(throws: LCMSColorConverter.Error.invalidProfile) { try LCMSColorConverter().convertToSRGB(&image) }
        #expect(image == before)
    }

    @Test("a truncated profile is refused by the converter and ignored by the pipeline")
    func truncatedProfile() async throws {
        // Given the P3 JPEG re-encoded with its profile cut to half its bytes
        let original = try await makePipeline(converter: nil).image(for: try fixtureURL("p3.jpg"))
        let icc = try fixture("DisplayP3.icc")
        var damaged = original
        damaged.colorProfile = .icc(icc.prefix(icc.count / 2))
        let converter = LCMSColorConverter()
        #expect(throws: LCMSColorConverter.Error.invalidProfile) { try converter.convertToSRGB(damaged) }
        let jpeg = try #require(ImageEncoders.JPEG(quality: 1).encode(damaged))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("color-damaged-\(UUID()).jpg")
        try jpeg.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        // When the pipeline with the converter loads it
        let decoded = try await makePipeline(converter: converter).image(for: url)

        // Then the image decodes with its pixels as decoded and no profile
        let untouched = try await makePipeline(converter: nil).image(for: url)
        #expect(untouched.colorProfile == damaged.colorProfile)
        #expect(decoded.colorProfile == nil)
        #expect(decoded.bytes == untouched.bytes)
    }

    @Test("random and truncated profile bytes never crash the converter")
    func robustness() throws {
        // Given real profiles cut at many lengths, with flipped bytes, and random bytes
        var generator = SystemRandomNumberGenerator()
        var profiles: [Data] = []
        for name in ["DisplayP3.icc", "AdobeRGB.icc", "ProPhotoRGB.icc"] {
            let icc = try fixture(name)
            for length in stride(from: 0, to: icc.count, by: max(1, icc.count / 64)) {
                profiles.append(icc.prefix(length))
            }
            for _ in 0..<200 {
                var flipped = icc
                let index = Int.random(in: 0..<icc.count, using: &generator)
                flipped[index] ^= UInt8.random(in: 1...255, using: &generator)
                profiles.append(flipped)
            }
        }
        for _ in 0..<64 {
            profiles.append(
                Data((0..<Int.random(in: 0..<600, using: &generator)).map { _ in UInt8.random(in: 0...255) }))
        }
        let converter = LCMSColorConverter(configuration: .init(maximumCachedTransformCount: 8))
        var converted = 0
        var refused = 0

        // When each is used to convert an image
        for profile in profiles {
            var image = try sample(opaque: false)
            image.colorProfile = .icc(profile)
            do {
                let result = try converter.convertToSRGB(image)
                // Then a conversion keeps the size ...
                #expect(result.width == 4 && result.height == 2 && result.colorProfile == nil)
                // ... premultiplied colour never above alpha, transparent pixels transparent (a damaged curve may
                // map black above zero) ...
                let bytes = result.bytes
                let valid = stride(from: 0, to: bytes.count, by: 4).allSatisfy { (offset: Int) -> Bool in
                    let alpha = bytes[offset + 3]
                    return bytes[offset] <= alpha && bytes[offset + 1] <= alpha && bytes[offset + 2] <= alpha
                }
                #expect(valid)
                #expect(result.pixel(x: 2, y: 1) == PlatformImage.RGBA(r: 0, g: 0, b: 0, a: 0))
                converted += 1
            } catch {
                // ... and a refusal is the converter's own error.
                #expect((error as? LCMSColorConverter.Error) == .invalidProfile)
                refused += 1
            }
        }
        #expect(converted + refused == profiles.count)
        #expect(refused > 0)
    }

    @Test("the description names the profile")
    func profileDescription() throws {
        #expect(LCMSColorConverter.description(of: .icc(try fixture("DisplayP3.icc"))) == "Display P3 (lcms2)")
        #expect(LCMSColorConverter.description(of: .icc(Data([1, 2, 3]))) == nil)
        let cicp = ColorProfile.CICP(
            colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true)
        #expect(
            LCMSColorConverter.description(of: .cicp(cicp))
                == "CICP primaries 12 (Display P3), transfer 13 (sRGB), matrix 0, full range")
    }
}
