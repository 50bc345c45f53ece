import Foundation
import Nuke
import NukeTestKit
import Testing

@Suite struct DefaultPipelineTests {
    @Test func defaultPipelineHasEveryPlugin() throws {
        let registry = ImageDecoderRegistry()
        let name = "nuke-tests-\(UUID().uuidString)"
        let pipeline = try ImagePipeline.makeDefault(cacheName: name, registry: registry)
        let cache = try #require(pipeline.configuration.dataCache as? DataCache)
        defer { try? FileManager.default.removeItem(at: cache.path) }

        #expect(pipeline.configuration.dataLoader is CurlDataLoader)
        #expect(cache.path.lastPathComponent == name)
        let png = ImageEncoders.PNG().encode(Fixtures.solidImage(width: 3, height: 2, color: .init(r: 1, g: 2, b: 3)))
        let context = ImageDecodingContext(request: ImageRequest(url: nil), data: try #require(png))
        #expect(registry.decoder(for: context) is ImageDecoders.PNG)
        #expect(pipeline.configuration.makeImageDecoder(context) is ImageDecoders.PNG)
    }

    @Test func automaticEncoderPicksJPEGForOpaqueAndPNGForTransparentImages() throws {
        var opaque = Fixtures.solidImage(width: 4, height: 4, color: .init(r: 10, g: 20, b: 30))
        opaque.isOpaque = true
        let transparent = Fixtures.solidImage(width: 4, height: 4, color: .init(r: 0, g: 0, b: 0, a: 0))
        let encoder = ImageEncoders.Default()
        #expect(AssetType(try #require(encoder.encode(opaque))) == .jpeg)
        #expect(AssetType(try #require(encoder.encode(transparent))) == .png)
    }

    /// An 8×6 GIF: one frame of palette index 0 (orange) over the whole screen.
    static var gif: Data {
        // LZW with a minimum code size of 2, all codes 3 bits wide: (clear, 0, 0) 24 times, then end of
        // information. A clear every two pixels keeps the table (and so the code width) from growing.
        let codes = Array(repeating: [UInt16(4), 0, 0], count: 24).joined() + [5]
        var bytes = [UInt8](repeating: 0, count: (codes.count * 3 + 7) / 8)
        for (index, code) in codes.enumerated() {
            for bit in 0..<3 where code >> bit & 1 == 1 {
                bytes[(index * 3 + bit) / 8] |= 1 << ((index * 3 + bit) % 8)
            }
        }
        let header = Array("GIF89a".utf8) + [8, 0, 6, 0, 0x80, 0, 0, 200, 100, 50, 0, 0, 0]
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 8, 0, 6, 0, 0, 2, UInt8(bytes.count)] + bytes + [0]
        return Data(header + frame + [0x3B])
    }

    @Test func decodesEveryDefaultFormat() async throws {
        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        let image = Fixtures.solidImage(width: 8, height: 6, color: .init(r: 200, g: 100, b: 50))
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"/>"#.utf8)
        let inputs: [Data?] = [
            ImageEncoders.PNG().encode(image), ImageEncoders.JPEG().encode(image), ImageEncoders.WebP().encode(image),
            svg, Self.gif, ImageEncoders.AVIF().encode(image), ImageEncoders.JXL().encode(image),
        ]
        for data in inputs {
            let data = try #require(data)
            let decoder = try #require(
                registry.decoder(for: ImageDecodingContext(request: ImageRequest(url: nil), data: data)))
            let container = try decoder.decode(data)
            #expect(container.image.width == 8 && container.image.height == 6)
        }
        #expect(try ImageDecoders.Default().decode(Self.gif).image.pixel(x: 7, y: 5) == .init(r: 200, g: 100, b: 50))
    }

    /// HEIC has no encoder here: Debian's `heif-enc` (libheif-examples, see scripts/setup.sh) writes one from a PNG.
    @Test func decodesHEICWrittenByHeifEnc() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-heic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = Fixtures.solidImage(width: 8, height: 6, color: .init(r: 200, g: 100, b: 50))
        let png = directory.appendingPathComponent("image.png")
        let heic = directory.appendingPathComponent("image.heic")
        try #require(ImageEncoders.PNG().encode(image)).write(to: png)
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        encoder.arguments = ["-q", "90", "-o", heic.path, png.path]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        let data = try Data(contentsOf: heic)

        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        let context = ImageDecodingContext(request: ImageRequest(url: nil), data: data)
        let decoder = try #require(registry.decoder(for: context))
        let container = try decoder.decode(data)

        #expect(decoder is ImageDecoders.HEIF)
        #expect(container.type == .heic)
        #expect(container.image.width == 8 && container.image.height == 6)
        #expect(
            ImageComparison.isClose(container.image.pixel(x: 4, y: 3), to: .init(r: 200, g: 100, b: 50), tolerance: 8))
        #expect(try ImageDecoders.Default().decode(data).image.width == 8)
    }

    @Test func defaultAnimationReadsGIFAndWebPAndNothingElse() throws {
        let gif = try #require(try ImageDecoders.Default.animation(for: Self.gif))
        #expect(gif is ImageDecoders.GIF.Animation && gif.frameCount == 1 && !gif.isAnimated)
        let image = Fixtures.solidImage(width: 8, height: 6, color: .init(r: 200, g: 100, b: 50))
        let webp = try #require(ImageEncoders.WebP().encode(image))
        #expect(try ImageDecoders.Default.animation(for: webp) is ImageDecoders.WebP.Animation)
        let png = try #require(ImageEncoders.PNG().encode(image))
        #expect(try ImageDecoders.Default.animation(for: png) == nil)
    }

    @Test func defaultAnimationReadsJXL() throws {
        let image = Fixtures.solidImage(width: 8, height: 6, color: .init(r: 200, g: 100, b: 50))
        let jxl = try #require(ImageEncoders.JXL(isLossless: true).encode(image))

        let animation = try #require(try ImageDecoders.Default.animation(for: jxl))

        #expect(animation is ImageDecoders.JXL.Animation && animation.frameCount == 1)
        #expect(try animation.frame(at: 0) == image)
    }
}
