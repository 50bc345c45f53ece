import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Behaviour that follows Nuke's own expectations (cases where this workspace once differed).
@Suite struct PipelineParityTests {
    @Test func cacheOptionsDontSplitTheDownload() async throws {
        // Given two requests for one URL, one of them reloading
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let plain = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("a")))
        let reload = fixture.pipeline.imageTask(
            with: ImageRequest(url: Fixtures.url("a"), options: [.reloadIgnoringCachedData]))

        // When the load completes
        await fixture.loader.waitForLoads(count: 1)
        fixture.loader.isSuspended = false
        _ = try await (plain.image, reload.image)

        // Then the data was loaded once
        #expect(fixture.loader.createdTaskCount == 1)
    }

    @Test func requestThatMayNotLoadDoesntJoinOneThatMay() async throws {
        let fixture = PipelineFixture { $0.dataCache = MockDataCache() }
        fixture.loader.isSuspended = true
        let loading = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("a")))
        let cacheOnly = fixture.pipeline.imageTask(
            with: ImageRequest(url: Fixtures.url("a"), options: [.returnCacheDataDontLoad]))

        #expect(await cacheOnly.result.error?.caseName == "dataMissingInCache")
        fixture.loader.isSuspended = false
        _ = try await loading.image
    }

    @Test func imageMadeFromMemoryCachedIntermediateReportsMemory() async throws {
        // Given the unprocessed image in the memory cache
        let fixture = PipelineFixture()
        _ = try await fixture.pipeline.imageTask(with: Fixtures.url("a")).image

        // When a processed version is requested
        let request = ImageRequest(url: Fixtures.url("a"), processors: [fixture.processor("p")])
        let response = try await fixture.pipeline.imageTask(with: request).response

        // Then it is made from the cached original, reported as a memory cache hit, and stored itself
        #expect(response.cacheType == .memory)
        #expect(fixture.loader.createdTaskCount == 1)
        #expect(fixture.pipeline.cache[request] != nil)
    }

    @Test func automaticPolicyStoresProcessedImagesOfLocalFiles() async throws {
        // Given a file URL and the automatic policy
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("image.bin")
        try Data(repeating: 7, count: 16).write(to: file)
        let cache = MockDataCache()
        let fixture = PipelineFixture {
            $0.dataCache = cache
            $0.dataCachePolicy = .automatic
            $0.makeImageEncoder = { _ in MockImageEncoder() }
        }

        // When a processed image of the file is loaded
        let request = ImageRequest(url: file, processors: [fixture.processor("p")])
        _ = try await fixture.pipeline.imageTask(with: request).image
        await fixture.pipeline.core.pendingEncodes.wait()

        // Then the processed image is stored encoded, the original data is not
        #expect(cache.containsData(for: fixture.pipeline.cache.makeDataCacheKey(for: request)))
        #expect(!cache.containsData(for: file.absoluteString))
    }

    @Test func delegateCacheKeyIsUsedForTheMemoryCache() async throws {
        final class KeyDelegate: ImagePipeline.Delegate {
            func cacheKey(for request: ImageRequest, pipeline: ImagePipeline) -> String? { "shared-key" }
        }
        let imageCache = ImageCache()
        let fixture = PipelineFixture(imageCache: imageCache)
        let pipeline = ImagePipeline(configuration: fixture.pipeline.configuration, delegate: KeyDelegate())

        let request = ImageRequest(url: Fixtures.url("a"))
        #expect(pipeline.cache.makeImageCacheKey(for: request) == ImageCacheKey(key: "shared-key"))
        _ = try await pipeline.imageTask(with: request).image

        // Stored under the custom key, so another URL with the same custom key is a memory hit.
        #expect(imageCache[ImageCacheKey(key: "shared-key")] != nil)
        let other = try await pipeline.imageTask(with: Fixtures.url("b")).response
        #expect(other.cacheType == .memory)
    }

    @Test func priorityChangedAfterTheTaskFinishedIsKept() async throws {
        let fixture = PipelineFixture()
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        _ = try await task.image
        task.priority = .high
        #expect(task.priority == .high)
        #expect(task.status.priority == .high)
    }

    @Test func emptyImageCostsOne() {
        let cache = ImageCache()
        #expect(cache.cost(for: ImageContainer(image: PlatformImage())) == 1)
    }

    @Test(.timeLimit(.minutes(1))) func prefetcherReportsCompletionWhenEverythingIsCached() async throws {
        // Given an image already in the memory cache
        let fixture = PipelineFixture()
        _ = try await fixture.pipeline.image(for: Fixtures.url("a"))
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        let gate = Gate()
        prefetcher.didComplete = { gate.open() }

        // When prefetching only that image, didComplete is still called
        prefetcher.startPrefetching(with: [Fixtures.url("a")])
        await gate.wait()
        #expect(prefetcher.pendingCount == 0)
    }
}
