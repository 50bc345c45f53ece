@testable import DecoderJXL
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("JPEG XL decoder")
struct JXLDecoderTests {
    @Test("matches both the bare codestream and the container, and register(in:) adds a factory for them")
    func matching() throws {
        let codestream = try fixture("lossless.jxl")
        let container = try fixture("container.jxl")
        #expect(codestream.prefix(2) == Data([0xFF, 0x0A]))
        #expect(container.prefix(12) == Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]))
        #expect(ImageDecoders.JXL(context: context(codestream)) != nil)
        #expect(ImageDecoders.JXL(context: context(container)) != nil)
        #expect(ImageDecoders.JXL(context: context(try fixture("source.png"))) == nil)

        let registry = ImageDecoderRegistry()
        ImageDecoders.JXL.register(in: registry)
        let decoder = try #require(registry.decoder(for: context(container)))
        #expect(try decoder.decode(container).image.width == 64)
    }

    @Test(
        "a lossless file decodes to exactly the source PNG's pixels and djxl's", arguments: ["lossless", "container"])
    func lossless(_ name: String) throws {
        let container = try ImageDecoders.JXL().decode(try fixture("\(name).jxl"))

        #expect(container.type == .jxl && container.data == nil && container.image.isOpaque)
        #expect(container.image == (try straightRGBA("source.rgba")))
        #expect(container.image == (try straightRGBA("lossless.djxl.rgba")))
    }

    @Test("a lossy file decodes to within 40 dB of djxl's output")
    func lossy() throws {
        let image = try ImageDecoders.JXL().decode(try fixture("lossy.jxl")).image

        #expect(image.width == 64 && image.height == 48 && image.isOpaque)
        let psnr = try #require(ImageComparison.psnr(image, try straightRGBA("lossy.djxl.rgba")))
        #expect(psnr >= 40, "PSNR \(psnr) dB")
    }

    @Test("alpha comes premultiplied, exactly the source's, transparent where the source is")
    func alpha() throws {
        let image = try ImageDecoders.JXL().decode(try fixture("alpha.jxl")).image

        #expect(!image.isOpaque)
        #expect(image == (try straightRGBA("alpha.rgba")))
        #expect(image.pixel(x: 30, y: 21) == .init(r: 0, g: 0, b: 0, a: 0))
        let left = try #require(image.pixel(x: 1, y: 0))
        #expect(left.a == 4 && left.r <= left.a && left.g <= left.a && left.b <= left.a)
    }

    @Test("grey with alpha comes as RGB: lossless exactly the source's, lossy within 40 dB of djxl's")
    func gray() throws {
        let lossless = try ImageDecoders.JXL().decode(try fixture("gray.jxl")).image
        let lossy = try ImageDecoders.JXL().decode(try fixture("gray-lossy.jxl")).image

        #expect(lossless == (try straightRGBA("gray.rgba")))
        let psnr = try #require(ImageComparison.psnr(lossy, try straightRGBA("gray-lossy.djxl.rgba")))
        #expect(psnr >= 40, "PSNR \(psnr) dB")
    }

    @Test("a recompressed JPEG with EXIF orientation 6 decodes upright, as djxl shows it")
    func orientation() throws {
        // The JPEG stores 48×64 pixels; its orientation turns them to 64×48.
        let image = try ImageDecoders.JXL().decode(try fixture("orientation-6.jxl")).image

        #expect(image.width == 64 && image.height == 48)
        let reference = try straightRGBA("orientation-6.djxl.rgba")
        #expect(try #require(ImageComparison.maximumDifference(image, reference)) <= 1)
    }

    @Test("the ICC profile of the original colour space is read without decoding pixels")
    func iccProfile() throws {
        let profile = try #require(try ImageDecoders.JXL.iccProfile(in: try fixture("lossless.jxl")))

        // An ICC profile: its size first (big-endian), the 'acsp' signature at 36, an RGB colour space at 16.
        let size = profile.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(size == profile.count && profile.count > 128)
        #expect(profile[36..<40] == Data("acsp".utf8))
        #expect(profile[16..<20] == Data("RGB ".utf8))
        #expect(throws: ImageDecoders.JXL.Error.emptyData) { try ImageDecoders.JXL.iccProfile(in: Data()) }
    }
}

@Suite("JPEG XL animation")
struct JXLAnimationTests {
    @Test("an animation decodes to its first frame, keeps the data, and is an ImageAnimation")
    func animation() throws {
        let data = try fixture("animated.jxl")

        let container = try ImageDecoders.JXL().decode(data)
        let animation: any ImageAnimation = try ImageDecoders.JXL.Animation(data: data)

        #expect(container.data == data)
        #expect(animation.canvasWidth == 32 && animation.canvasHeight == 32)
        // cjxl 0.7 keeps the APNG's durations, not its play count: the file loops forever.
        #expect(animation.frameCount == 3 && animation.loopCount == 0 && animation.isAnimated)
        #expect(animation.frameDurations == animatedFrames.map(\.duration))
        #expect(try animation.frame(at: 0) == container.image)
        var images: [PlatformImage] = []
        try animation.forEachFrame { images.append($0.image) }
        #expect(images.count == 3)
        for (image, frame) in zip(images, animatedFrames) {
            #expect(try isSolid(image, frame.rgba))
        }
        #expect(try animation.frame(at: 2) == images[2])
        #expect(throws: ImageDecoders.JXL.Error.frameIndexOutOfRange(index: 3, frameCount: 3)) {
            try ImageDecoders.JXL.Animation(data: data).frame(at: 3)
        }
    }

    @Test("a still image is an animation of one frame that plays once")
    func still() throws {
        let animation = try ImageDecoders.JXL.Animation(data: try fixture("lossless.jxl"))

        #expect(animation.frameCount == 1 && animation.loopCount == 1 && animation.bitDepth == 8)
        #expect(animation.frameDurations == [0])
        #expect(try animation.frame(at: 0) == (try straightRGBA("source.rgba")))
    }
}

@Suite("JPEG XL progressive previews")
struct JXLProgressiveTests {
    @Test("a partial download shows previews of the final size that approach the image as more arrives")
    func previews() throws {
        let data = try fixture("progressive.jxl")  // 384×256, two groups: libjxl 0.7 renders a partial frame
        let decoder = ImageDecoders.JXL()

        let previews = stride(from: 1, to: data.count, by: 97).compactMap {
            decoder.decodePartiallyDownloadedData(data.prefix($0))
        }

        #expect(ImageDecoders.JXL().decodePartiallyDownloadedData(data.prefix(8)) == nil)
        let first = try #require(previews.first)
        let last = try #require(previews.last)
        #expect(first.isPreview && first.type == .jxl && first.image.width == 384 && first.image.height == 256)
        // The first preview is the DC image (1:8) upsampled: a blurred picture, far closer to the image than a
        // blank one; later previews add whole groups.
        let final = try decoder.decode(data).image
        let blank = Fixtures.solidImage(width: 384, height: 256, color: .init(r: 0, g: 0, b: 0, a: 255))
        let firstPSNR = try #require(ImageComparison.psnr(first.image, final))
        let lastPSNR = try #require(ImageComparison.psnr(last.image, final))
        #expect(firstPSNR > (try #require(ImageComparison.psnr(blank, final))) + 5, "first preview: \(firstPSNR) dB")
        #expect(lastPSNR > firstPSNR, "last preview: \(lastPSNR) dB")
    }

    @Test("one decoder fed the growing download renders what a fresh decoder renders from the same bytes")
    func incremental() throws {
        let data = try fixture("progressive.jxl")
        let decoder = ImageDecoders.JXL()
        var previews = 0

        for count in stride(from: 500, to: data.count, by: 500) {
            let preview = decoder.decodePartiallyDownloadedData(data.prefix(count))
            let fresh = ImageDecoders.JXL().decodePartiallyDownloadedData(data.prefix(count))

            #expect(preview?.image == fresh?.image, "\(count) bytes")
            previews += preview == nil ? 0 : 1
        }

        #expect(previews > 0)
    }

    @Test("no new bytes, or a final decode, end the previews")
    func previewsStop() throws {
        let data = try fixture("progressive.jxl")
        let decoder = ImageDecoders.JXL()

        let first = decoder.decodePartiallyDownloadedData(data.prefix(6000))
        let again = decoder.decodePartiallyDownloadedData(data.prefix(6000))
        _ = try decoder.decode(data)
        let after = decoder.decodePartiallyDownloadedData(data.prefix(8000))

        #expect(first != nil && again == nil && after == nil)
    }

    @Test("an animation gives no previews")
    func animation() throws {
        let data = try fixture("animated.jxl")
        #expect(ImageDecoders.JXL().decodePartiallyDownloadedData(data.prefix(data.count - 1)) == nil)
    }
}

@Suite struct JXLColorProfileTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjxl")))
    func aLosslessFileInAdobeRGBHandsItsProfileOverAndSRGBHandsNothing() throws {
        // Given lossless JPEG XL files cjxl made from an Adobe RGB PNG (its iCCP kept) and from a PNG without one
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jxl-icc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let colorFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../ColorLCMSTests/Fixtures").standardized
        func encode(_ name: String) throws -> Data {
            let output = directory.appendingPathComponent(name + ".jxl")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/cjxl")
            process.arguments = [colorFixtures.appendingPathComponent(name + ".png").path, output.path, "-d", "0"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return try Data(contentsOf: output)
        }

        // When they are decoded
        let wide = try ImageDecoders.JXL().decode(try encode("adobergb")).image
        let plain = try ImageDecoders.JXL().decode(try encode("noprofile")).image

        // Then the Adobe RGB one carries the profile libjxl reports for its pixels, and the other none
        let profile = try #require(try ImageDecoders.JXL.iccProfile(in: try encode("adobergb")))
        #expect(wide.colorProfile == .icc(profile))
        #expect(plain.colorProfile == nil)
    }
}
