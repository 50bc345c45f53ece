import Foundation
import Nuke
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ImagePrefetcher` with both destinations, `DataLoader`, and the app's own `DataLoading`/`Cancellable`.
@Suite struct PrefetchingAndLoadingTests {
    private func prefetch(_ prefetcher: ImagePrefetcher, _ start: () -> Void) async {
        await withCheckedContinuation { continuation in
            prefetcher.didComplete = { continuation.resume() }
            start()
        }
    }

    @Test func prefetchingToMemoryCache() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .memoryCache, maxConcurrentRequestCount: 2)
        prefetcher.priority = .low
        prefetcher.isPaused = false

        // When
        await prefetch(prefetcher) { prefetcher.startPrefetching(with: [backend.pngURL, backend.jpegURL]) }

        // Then
        #expect(pipeline.cache[backend.pngURL] != nil && pipeline.cache[backend.jpegURL] != nil)
        #expect(try await pipeline.imageTask(with: backend.pngURL).response.cacheType == .memory)
        #expect(prefetcher.priority == .low && !prefetcher.isPaused)
        prefetcher.stopPrefetching(with: [backend.pngURL])
        prefetcher.stopPrefetching()
    }

    @Test func prefetchingToDiskCacheSkipsDecoding() async throws {
        // Given
        let backend = try AppBackend()
        let dataCache = InMemoryDataCache()
        let pipeline = makeAppPipeline { $0.dataCache = dataCache }
        let destination: ImagePrefetcher.Destination = .diskCache
        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: destination)
        let request = ImageRequest(url: backend.otherURL)

        // When
        await prefetch(prefetcher) { prefetcher.startPrefetching(with: [request]) }

        // Then
        #expect(pipeline.cache.containsData(for: request))
        #expect(pipeline.cache[request] == nil)
        prefetcher.stopPrefetching(with: [request])
    }

    @Test func dataLoaderValidatesStatusCodes() async throws {
        // Given Nuke's loader, built from its default configuration and validation
        let backend = try AppBackend()
        let configuration = DataLoader.defaultConfiguration
        let loader = DataLoader(configuration: configuration, validate: DataLoader.validate(response:))
        loader.prefersIncrementalDelivery = true
        let counting = CountingDataLoader(loader)
        let pipeline = makeAppPipeline { $0.dataLoader = counting }

        // When
        let image = try await pipeline.image(for: backend.pngURL)
        let failure = await withCheckedContinuation { continuation in
            pipeline.loadImage(with: backend.missingURL) { continuation.resume(returning: $0) }
        }

        // Then
        #expect(image.width == SampleImages.width && counting.loadCount == 2)
        #expect(loader.prefersIncrementalDelivery && loader.session.configuration.timeoutIntervalForRequest > 0)
        guard case .failure(.dataLoadingFailed(let error)) = failure,
            case DataLoader.Error.statusCodeUnacceptable(404) = error
        else {
            Issue.record("expected statusCodeUnacceptable(404), got \(failure)")
            return
        }
        let notFound = HTTPURLResponse(url: backend.missingURL, statusCode: 404, httpVersion: nil, headerFields: nil)
        #expect(DataLoader.validate(response: try #require(notFound)) != nil)
        #expect(DataLoader.sharedUrlCache.diskCapacity > 0)
    }

    @Test func appLoaderIsCancelledWithItsTask() async throws {
        // Given the gated image loaded through the app's loader
        let backend = try AppBackend()
        let loader = CountingDataLoader()
        let pipeline = makeAppPipeline { $0.dataLoader = loader }
        let task = pipeline.imageTask(with: backend.gatedURL)
        let events = Task { for await _ in task.events {} }
        try await backend.server.waitForRequests(count: 1)

        // When
        task.cancel()
        await events.value
        await loader.cancelled.wait()

        // Then
        #expect(loader.loadCount == 1 && loader.cancelCount == 1)
    }
}
