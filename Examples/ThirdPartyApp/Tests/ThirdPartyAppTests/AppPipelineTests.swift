import DecoderPNG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@testable import ThirdPartyApp

/// The app's pipeline, built the way `main` builds it, against a loopback server.
@Suite struct AppPipelineTests {
    @Test func loadsPNGAndPPMThroughTheAppsLoaderAndDecoders() async throws {
        // Given a server with a 3×2 PNG and a 16×8 PPM, and the app's pipeline with its own registry
        let image = try PlatformImage(width: 3, height: 2)
        let png = try #require(ImageEncoders.PNG().encode(image))
        let server = try LoopbackHTTPServer(routes: ["/a.png": .data(png), "/b.ppm": .data(sample)])
        defer { server.shutdown() }
        let pipeline = ThirdPartyApp.makePipeline(registry: ImageDecoderRegistry())

        // When loading both
        let decodedPNG = try await pipeline.image(for: server.url("/a.png"))
        let decodedPPM = try await pipeline.image(for: server.url("/b.ppm"))

        // Then each has its size and the pixels of the PPM, and every request carried the loader's header
        #expect(decodedPNG.width == 3 && decodedPNG.height == 2)
        #expect(decodedPPM.width == 16 && decodedPPM.height == 8)
        #expect(decodedPPM.pixel(x: 1, y: 0) == .init(r: 1, g: 0, b: 7))
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.header("User-Agent") == "ThirdPartyApp" })
    }

    // Plugins.md shows these lines (Tests/IntegrationTests/PluginsGuideTests.swift checks it).
    // PLUGINS-TEST-PIPELINE-BEGIN
    @Test func decodesPPMThroughAPipeline() async throws {
        let registry = ImageDecoderRegistry()
        registry.register { PPMDecoder(context: $0) }
        let pipeline = ImagePipeline {
            $0.imageCache = ImageCache()  // its own: tests run in parallel, and ImageCache.shared is one for all
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        }
        let url = try #require(URL(string: "data:image/x-portable-pixmap;base64,\(sample.base64EncodedString())"))
        let image = try await pipeline.image(for: url)
        #expect(image.width == 16 && image.height == 8)
    }
    // PLUGINS-TEST-PIPELINE-END
}
