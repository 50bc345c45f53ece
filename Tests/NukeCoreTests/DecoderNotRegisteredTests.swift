import Foundation
import NukeCore
import NukeTestKit
import Testing

/// A "no decoder" error says where the pipeline looked for a decoder, so the advice fits the configuration.
@Suite struct DecoderNotRegisteredTests {
    private static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])

    /// Loads a PNG through a pipeline without a PNG decoder and returns the "no decoder" error's description.
    private func noDecoderDescription(
        configure: (inout ImagePipeline.Configuration) -> Void, delegate: (any ImagePipeline.Delegate)? = nil
    ) async throws -> String {
        let loader = MockDataLoader()
        let url = Fixtures.url("a.png")
        loader.setResponse(for: url, data: Self.png)
        var configuration = ImagePipeline.Configuration(dataLoader: loader, imageCache: nil)
        configure(&configuration)
        let pipeline = ImagePipeline(configuration: configuration, delegate: delegate)
        let error = await pipeline.imageTask(with: url).result.error
        guard let error, case .decoderNotRegistered = error else {
            throw Failure("expected decoderNotRegistered, got \(error as Any)")
        }
        return error.description
    }

    @Test func theDefaultLookupPointsToTheSharedRegistry() async throws {
        // Given a pipeline whose decoder lookup is the default one (the shared registry has no PNG decoder here)
        // When a PNG arrives
        let description = try await noDecoderDescription(configure: { _ in })

        // Then the error tells the user to register with the shared registry
        #expect(description.contains("public.png"))
        #expect(description.contains("ImageDecoderRegistry.shared.register"))
        #expect(!description.contains("makeImageDecoder"))
    }

    @Test func aPipelineWithItsOwnRegistryNamesItsMakeImageDecoder() async throws {
        // Given a pipeline that asks its own (empty) registry
        let registry = ImageDecoderRegistry()
        // When a PNG arrives
        let description = try await noDecoderDescription(configure: {
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        })

        // Then the error names the configuration's lookup, not the shared registry it doesn't use
        #expect(description.contains("public.png"))
        #expect(description.contains("ImagePipeline.Configuration.makeImageDecoder returned nil"))
        #expect(!description.contains("ImageDecoderRegistry.shared"))
    }

    @Test func aCustomDelegateIsNamed() async throws {
        // Given a pipeline whose delegate chooses decoders (and finds none)
        final class NoDecoders: ImagePipeline.Delegate {
            func imageDecoder(for context: ImageDecodingContext, pipeline: ImagePipeline) -> (any ImageDecoding)? {
                nil
            }
        }
        // When a PNG arrives
        let description = try await noDecoderDescription(configure: { _ in }, delegate: NoDecoders())

        // Then the error names the delegate's method
        #expect(description.contains("imageDecoder(for:pipeline:) returned nil"))
        #expect(!description.contains("ImageDecoderRegistry.shared.register"))
    }

    private struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
