import Foundation
import Nuke
import NukeTestKit
import Testing

/// Nuke idioms about process-wide state: `ImagePipeline.shared`, `ImageDecoderRegistry.shared`,
/// `Configuration.isSignpostLoggingEnabled`. Each test restores what it changed; the suite runs serially.
@Suite(.serialized) struct SharedStateTests {
    @Test func sharedPipelineCanBeReplaced() async throws {
        // Given
        let backend = try AppBackend()
        let original = ImagePipeline.shared
        defer { ImagePipeline.shared = original }

        // When the app sets up the shared pipeline at start-up
        ImagePipeline.shared = makeAppPipeline()

        // Then code that uses `.shared` loads through it
        let image = try await ImagePipeline.shared.image(for: backend.pngURL)
        #expect(image.width == SampleImages.width)
        #expect(ImagePipeline.shared !== original)
    }

    @Test func defaultConfigurationCannotLoadHTTP() async throws {
        // Given an out-of-the-box configuration (Nuke: a URLSession loader and default decoders)
        let backend = try AppBackend()

        // When
        let result: Result<PlatformImage, ImagePipeline.Error>
        do {
            result = .success(try await ImagePipeline(configuration: .init(), delegate: nil).image(for: backend.pngURL))
        } catch {
            result = .failure(error)
        }

        // Then: here `Configuration()` loads with `MissingDataLoader` (NukeCore links no network library; see
        // Porting.md), which fails with an error that names the plugin to add
        guard case let .failure(.dataLoadingFailed(error)) = result else {
            Issue.record("expected dataLoadingFailed, got \(result)")
            return
        }
        #expect("\(error)".contains("CurlDataLoader"))
    }

    @Test func sharedRegistryRegistration() throws {
        // Given the shared registry an app registers its decoders in at start-up
        let token = ImageDecoderRegistry.shared.register { TinyDecoder(context: $0) }
        defer { ImageDecoderRegistry.shared.unregister(token) }

        // When
        let context = ImageDecodingContext(request: ImageRequest(url: nil), data: Data([0xAB, 2, 3]))

        // Then
        #expect(ImageDecoderRegistry.shared.decoder(for: context) is TinyDecoder)
    }

    @Test func signpostLoggingFlag() {
        // Given
        let original = ImagePipeline.Configuration.isSignpostLoggingEnabled
        defer { ImagePipeline.Configuration.isSignpostLoggingEnabled = original }

        // When
        ImagePipeline.Configuration.isSignpostLoggingEnabled = true

        // Then (a no-op on Linux, kept so app code compiles)
        _ = ImagePipeline.Configuration.isSignpostLoggingEnabled
    }
}
