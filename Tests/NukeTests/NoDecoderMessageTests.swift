import Foundation
import Nuke
import NukeTestKit
import Testing

/// The umbrella's configurations keep "no decoder" errors pointing where their lookup asks.
@Suite struct NoDecoderMessageTests {
    private static let unknown = Data(repeating: 1, count: 32)

    private func noDecoderDescription(_ configuration: ImagePipeline.Configuration) async throws -> String {
        let loader = MockDataLoader()
        let url = Fixtures.url("unknown.bin")
        loader.setResponse(for: url, data: Self.unknown)
        var configuration = configuration
        configuration.dataLoader = loader
        configuration.imageCache = nil
        configuration.dataCache = nil
        do {
            _ = try await ImagePipeline(configuration: configuration).image(for: url)
        } catch {
            if case .decoderNotRegistered = error { return error.description }
            throw error
        }
        throw NoDecoderError(description: "expected decoderNotRegistered, the image was decoded")
    }

    @Test func withDataCacheAsksTheSharedRegistryFirst() async throws {
        // Given Nuke's configuration, which asks the shared registry and then the built-in codecs
        let name = "nuke-tests-\(UUID().uuidString)"
        let configuration = ImagePipeline.Configuration.withDataCache(name: name)
        let cachePath = (configuration.dataCache as? DataCache)?.path
        defer { if let cachePath { try? FileManager.default.removeItem(at: cachePath) } }

        // When data no codec knows arrives
        let description = try await noDecoderDescription(configuration)

        // Then the error points to the shared registry
        #expect(description.contains("ImageDecoderRegistry.shared.register"))
    }

    @Test func makeDefaultWithItsOwnRegistryNamesTheConfigurationsLookup() async throws {
        // Given a default pipeline whose decoders live in a registry of its own
        let name = "nuke-tests-\(UUID().uuidString)"
        let pipeline = try ImagePipeline.makeDefault(cacheName: name, registry: ImageDecoderRegistry())
        let cachePath = (pipeline.configuration.dataCache as? DataCache)?.path
        defer { if let cachePath { try? FileManager.default.removeItem(at: cachePath) } }

        // When data no codec knows arrives
        let description = try await noDecoderDescription(pipeline.configuration)

        // Then the error names the configuration's makeImageDecoder, not the shared registry
        #expect(description.contains("ImagePipeline.Configuration.makeImageDecoder returned nil"))
        #expect(!description.contains("ImageDecoderRegistry.shared"))
    }

    private struct NoDecoderError: Error, CustomStringConvertible {
        let description: String
    }
}
