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

    @Test func decodesEveryDefaultFormat() async throws {
        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        let image = Fixtures.solidImage(width: 8, height: 6, color: .init(r: 200, g: 100, b: 50))
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"/>"#.utf8)
        let inputs: [Data?] = [
            ImageEncoders.PNG().encode(image), ImageEncoders.JPEG().encode(image), ImageEncoders.WebP().encode(image),
            svg,
        ]
        for data in inputs {
            let data = try #require(data)
            let decoder = try #require(
                registry.decoder(for: ImageDecodingContext(request: ImageRequest(url: nil), data: data)))
            let container = try decoder.decode(data)
            #expect(container.image.width == 8 && container.image.height == 6)
        }
    }
}
