import Foundation
import Nuke
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The async API with typed throws: the caught `error` is an `ImagePipeline.Error`, switched on without a cast.
@Suite struct AsyncAPITests {
    /// What an app's screen shows for a load.
    enum ScreenState: Equatable {
        case image(width: Int)
        case notFound
        case broken
        case failed
    }

    /// The app's loading function, written as in Nuke's documentation.
    func load(_ url: URL, with pipeline: ImagePipeline) async -> ScreenState {
        do {
            let image = try await pipeline.image(for: url)
            return .image(width: image.width)
        } catch {
            switch error {
            case .dataLoadingFailed(let underlying):
                if case DataLoader.Error.statusCodeUnacceptable(404) = underlying { return .notFound }
                return .failed
            case .decodingFailed, .decoderNotRegistered:
                return .broken
            case .dataMissingInCache, .dataIsEmpty, .processingFailed, .imageRequestMissing, .pipelineInvalidated,
                .dataDownloadExceededMaximumSize, .cancelled:
                return .failed
            @unknown default:
                return .failed
            }
        }
    }

    @Test func typedErrorsSwitchWithoutACast() async throws {
        // Given a pipeline on Nuke's URLSession loader, whose errors the app matches
        let backend = try AppBackend()
        let pipeline = makeAppPipeline { $0.dataLoader = DataLoader() }

        // When
        let loaded = await load(backend.pngURL, with: pipeline)
        let missing = await load(backend.missingURL, with: pipeline)
        let garbage = await load(backend.garbageURL, with: pipeline)

        // Then
        #expect(loaded == .image(width: SampleImages.width))
        #expect(missing == .notFound)
        #expect(garbage == .broken)
    }

    @Test func errorExposesTheLoadingErrorAndADescription() async throws {
        // Given a pipeline on Nuke's URLSession loader
        let backend = try AppBackend()
        let pipeline = makeAppPipeline { $0.dataLoader = DataLoader() }

        // When
        do {
            _ = try await pipeline.image(for: ImageRequest(url: backend.missingURL))
            Issue.record("expected a 404")
        } catch {
            // Then
            let loading = try #require(error.dataLoadingError as? DataLoader.Error)
            #expect(loading == .statusCodeUnacceptable(404))
            #expect(!loading.description.isEmpty)
            #expect(error.description.contains("404"))
        }
    }

    @Test func dataForRequestReturnsBytesAndResponse() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()

        // When
        let (data, response) = try await pipeline.data(for: ImageRequest(url: backend.pngURL))

        // Then
        #expect(data == (try SampleImages.png()))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(AssetType(data) == .png)
    }

    @Test func cancellingTheSwiftTaskCancelsTheLoad() async throws {
        // Given a load of the gated image in a Swift task
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        let load = Task { () -> ImagePipeline.Error? in
            do throws(ImagePipeline.Error) {
                _ = try await pipeline.image(for: backend.gatedURL)
                return nil
            } catch {
                return error
            }
        }
        try await backend.server.waitForRequests(count: 1)

        // When
        load.cancel()

        // Then
        guard case .cancelled? = await load.value else {
            Issue.record("expected ImagePipeline.Error.cancelled")
            return
        }
    }
}
