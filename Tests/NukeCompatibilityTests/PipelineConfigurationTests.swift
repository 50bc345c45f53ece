import Foundation
import Nuke
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ImagePipeline`'s initialisers and every `ImagePipeline.Configuration` property, as an app sets them up.
@Suite struct PipelineConfigurationTests {
    @Test func pipelineFromConfigurationLoadsAnImage() async throws {
        // Given a configuration built the documented way
        let backend = try AppBackend()
        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        var configuration = ImagePipeline.Configuration(dataLoader: DataLoader())
        configuration.imageCache = ImageCache()
        configuration.makeImageDecoder = { registry.decoder(for: $0) }
        let pipeline = ImagePipeline(configuration: configuration)

        // When
        let image = try await pipeline.image(for: backend.pngURL)

        // Then
        #expect(image.size == CGSize(width: SampleImages.width, height: SampleImages.height))
        #expect(pipeline.configuration.dataLoader is DataLoader)
    }

    @Test func pipelineFromClosureAndDelegate() async throws {
        // Given `ImagePipeline { }` and `ImagePipeline(delegate:_:)`
        let backend = try AppBackend()
        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        let plain = ImagePipeline {
            $0.dataLoader = DataLoader()
            $0.imageCache = nil
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        }
        let delegate = CountingDelegate()
        let delegating = ImagePipeline(delegate: delegate) {
            $0.dataLoader = DataLoader()
            $0.imageCache = nil
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        }

        // When
        _ = try await plain.image(for: backend.pngURL)
        _ = try await delegating.image(for: backend.pngURL)

        // Then both loaded from the server, and the delegate saw its pipeline's task
        #expect(backend.requestCount("/photo.png") == 2)
        #expect(delegate.createdCount == 1)
        #expect(plain.configuration.imageCache == nil)
    }

    @Test func withDataCacheStoresOriginalDataOnDisk() async throws {
        // Given Nuke's recommended configuration, with a unique cache name
        let backend = try AppBackend()
        let name = "nuke-compat-\(UUID().uuidString)"
        var configuration = ImagePipeline.Configuration.withDataCache(name: name, sizeLimit: 10 * 1024 * 1024)
        configuration.imageCache = nil
        let cache = try #require(configuration.dataCache as? DataCache)
        defer { try? FileManager.default.removeItem(at: cache.path) }
        let pipeline = ImagePipeline(configuration: configuration)

        // When
        _ = try await pipeline.image(for: backend.pngURL)
        let again = try await pipeline.imageTask(with: backend.pngURL).response

        // Then the second load comes from disk
        #expect(cache.sizeLimit == 10 * 1024 * 1024)
        #expect(cache.path.lastPathComponent == name)
        #expect(again.cacheType == .disk)
        #expect(backend.requestCount("/photo.png") == 1)
        #expect(ImagePipeline.Configuration.withDataCache.dataCache is DataCache)
    }

    @Test func withURLCacheLoadsAndDecodes() async throws {
        // Given Nuke's `URLCache`-based configuration (default codecs included)
        let backend = try AppBackend()
        var configuration = ImagePipeline.Configuration.withURLCache
        configuration.imageCache = ImageCache()
        let pipeline = ImagePipeline(configuration: configuration)

        // When
        let image = try await pipeline.image(for: backend.jpegURL)

        // Then
        #expect(image.width == SampleImages.width)
        #expect(configuration.dataCache == nil)
        #expect(configuration.dataLoader is DataLoader)
    }

    @Test func everyConfigurationPropertyIsSettable() {
        // Given every property an app may set
        var configuration = ImagePipeline.Configuration(dataLoader: DataLoader())
        configuration.dataLoader = DataLoader()
        configuration.dataCache = nil
        configuration.imageCache = ImageCache(costLimit: 1024)
        configuration.makeImageDecoder = { _ in ImageDecoders.Empty() }
        configuration.makeImageEncoder = { _ in ImageEncoders.Default() }
        configuration.isDecompressionEnabled = false
        configuration.isUsingPrepareForDisplay = true
        let policy: ImagePipeline.DataCachePolicy = .storeAll
        configuration.dataCachePolicy = policy
        configuration.isTaskCoalescingEnabled = false
        configuration.isRateLimiterEnabled = true
        configuration.isProgressiveDecodingEnabled = true
        configuration.progressiveDecodingInterval = 0.25
        configuration.isStoringPreviewsInMemoryCache = false
        configuration.isResumableDataEnabled = false
        configuration.isLocalResourcesSupportEnabled = false
        configuration.maximumResponseDataSize = 1024
        configuration.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 3)
        configuration.imageDecodingQueue = TaskQueue(maxConcurrentOperationCount: 1)
        configuration.imageEncodingQueue = TaskQueue(maxConcurrentOperationCount: 1)
        configuration.imageProcessingQueue = TaskQueue(maxConcurrentOperationCount: 2)
        configuration.imageDecompressingQueue = TaskQueue(maxConcurrentOperationCount: 2)

        // When
        let pipeline = ImagePipeline(configuration: configuration)

        // Then the pipeline keeps them
        let kept = pipeline.configuration
        #expect(kept.dataLoader is DataLoader)
        #expect(kept.dataCache == nil)
        #expect((kept.imageCache as? ImageCache)?.costLimit == 1024)
        let context = ImageDecodingContext(request: ImageRequest(url: nil), data: Data([1]))
        #expect(kept.makeImageDecoder(context) is ImageDecoders.Empty)
        #expect(!kept.isDecompressionEnabled && kept.isUsingPrepareForDisplay)
        #expect(kept.dataCachePolicy == .storeAll)
        #expect(!kept.isTaskCoalescingEnabled && kept.isRateLimiterEnabled && kept.isProgressiveDecodingEnabled)
        #expect(kept.progressiveDecodingInterval == 0.25)
        #expect(!kept.isStoringPreviewsInMemoryCache && !kept.isResumableDataEnabled)
        #expect(!kept.isLocalResourcesSupportEnabled)
        #expect(kept.maximumResponseDataSize == 1024)
        #expect(kept.dataLoadingQueue.maxConcurrentOperationCount == 3)
        #expect(kept.imageDecodingQueue.maxConcurrentOperationCount == 1)
        #expect(kept.imageEncodingQueue.maxConcurrentOperationCount == 1)
        #expect(kept.imageProcessingQueue.maxConcurrentOperationCount == 2)
        #expect(kept.imageDecompressingQueue.maxConcurrentOperationCount == 2)
        #expect([.automatic, .storeOriginalData, .storeEncodedImages] != [kept.dataCachePolicy])
        pipeline.invalidate()
    }

    @Test func maximumResponseDataSizeFailsLargeDownloads() async throws {
        // Given a limit smaller than the image
        let backend = try AppBackend()
        let pipeline = makeAppPipeline { $0.maximumResponseDataSize = 16 }

        // When / Then
        await #expect {
            try await pipeline.image(for: backend.pngURL)
        } throws: { error in
            guard case ImagePipeline.Error.dataDownloadExceededMaximumSize = error else { return false }
            return true
        }
    }

    @Test func taskCoalescingLoadsOnceForConcurrentRequests() async throws {
        // Given the gated image, requested twice while the first request is in flight
        let backend = try AppBackend()
        let pipeline = makeAppPipeline { $0.imageCache = nil }
        let first = pipeline.imageTask(with: backend.gatedURL)
        let second = pipeline.imageTask(with: backend.gatedURL)
        async let a = first.image
        async let b = second.image
        try await backend.server.waitForRequests(count: 1)

        // When
        backend.gate.open()
        let (imageA, imageB) = try await (a, b)

        // Then one request served both
        #expect(imageA == imageB)
        #expect(backend.requestCount("/gated.png") == 1)
    }

    @Test func invalidatedPipelineFailsRequests() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()

        // When
        pipeline.invalidate()

        // Then
        do {
            _ = try await pipeline.image(for: backend.pngURL)
            Issue.record("expected pipelineInvalidated")
        } catch {
            guard case .pipelineInvalidated = error else { throw error }
        }
    }
}
