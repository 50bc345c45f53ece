import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

@Suite struct MemoryCacheTests {
    private func container(_ side: Int) -> ImageContainer {
        ImageContainer(image: Fixtures.solidImage(width: side, height: side, color: .init(r: 1, g: 1, b: 1)))
    }

    private func key(_ name: String) -> ImageCacheKey {
        ImageCacheKey(request: ImageRequest(url: Fixtures.url(name)))
    }

    @Test func costIsPixelBytesPlusData() {
        let cache = ImageCache()
        var item = container(10)
        #expect(cache.cost(for: item) == 400)
        item.data = Data(count: 100)
        #expect(cache.cost(for: item) == 500)
    }

    @Test func costLimitEvictsLeastRecentlyUsed() {
        // Given room for two 400-byte images (entry limit raised so each fits)
        let cache = ImageCache(costLimit: 800)
        cache.entryCostLimit = 1
        cache[key("a")] = container(10)
        cache[key("b")] = container(10)
        _ = cache[key("a")]  // a is now the most recently used

        // When a third is added
        cache[key("c")] = container(10)

        // Then b, the least recently used, is gone
        #expect(cache[key("a")] != nil)
        #expect(cache[key("b")] == nil)
        #expect(cache[key("c")] != nil)
        #expect(cache.totalCost == 800)
    }

    @Test func countLimitEvictsLeastRecentlyUsed() {
        let cache = ImageCache(countLimit: 2)
        cache[key("a")] = container(1)
        cache[key("b")] = container(1)
        cache[key("c")] = container(1)
        #expect(cache.totalCount == 2)
        #expect(cache[key("a")] == nil)
    }

    @Test func oversizedEntriesAreNotStored() {
        let cache = ImageCache(costLimit: 1000)  // entries up to 100 bytes
        cache[key("small")] = container(5)  // 100 bytes
        cache[key("large")] = container(6)  // 144 bytes
        #expect(cache[key("small")] != nil)
        #expect(cache[key("large")] == nil)
    }

    @Test func expiredEntriesAreMisses() {
        let cache = ImageCache()
        cache.store(container(1), for: key("a"), ttl: 0)
        cache.store(container(1), for: key("b"), ttl: 3600)
        #expect(cache[key("a")] == nil)
        #expect(cache[key("b")] != nil)
    }

    @Test func trimAndRemoveAll() {
        let cache = ImageCache()
        for name in ["a", "b", "c"] { cache[key(name)] = container(1) }
        cache.trim(toCount: 1)
        #expect(cache.totalCount == 1)
        #expect(cache[key("c")] != nil)
        cache.trim(toCost: 0)
        #expect(cache.totalCount == 0)
        cache[key("a")] = container(1)
        cache.removeAll()
        #expect(cache.totalCount == 0 && cache.totalCost == 0)
    }

    @Test func keyCoversIdentityScaleThumbnailAndProcessors() {
        let url = Fixtures.url("a")
        var scaled = ImageRequest(url: url)
        scaled.scale = 2
        var thumbnail = ImageRequest(url: url)
        thumbnail.thumbnail = .init(maxPixelSize: 10)
        let processed = ImageRequest(url: url, processors: [MockImageProcessor(id: "p")])
        let keys = [ImageRequest(url: url), scaled, thumbnail, processed].map { ImageCacheKey(request: $0) }
        #expect(Set(keys).count == 4)
        // Priority and options don't change the image
        #expect(
            ImageCacheKey(request: ImageRequest(url: url, priority: .high, options: [.disableMemoryCacheWrites]))
                == keys[0])
        // The image id override makes different URLs share an entry
        let signed1 = ImageRequest(url: Fixtures.url("a?sig=1"), userInfo: [.imageIdKey: "a"])
        let signed2 = ImageRequest(url: Fixtures.url("a?sig=2"), userInfo: [.imageIdKey: "a"])
        #expect(ImageCacheKey(request: signed1) == ImageCacheKey(request: signed2))
    }

    @Test func onlyRequestedImagesAreStoredButEveryLevelIsConsulted() async throws {
        // Given [p1] loaded by a request of its own
        let fixture = PipelineFixture()
        let url = Fixtures.url("a")
        _ = try await fixture.pipeline.image(for: ImageRequest(url: url, processors: [fixture.processor("p1")]))

        // Then it is in the memory cache, but the unprocessed original (an intermediate level) is not
        #expect(fixture.pipeline.cache[ImageRequest(url: url, processors: [fixture.processor("p1")])] != nil)
        #expect(fixture.pipeline.cache[ImageRequest(url: url)] == nil)

        // When a longer chain with that prefix is requested
        let extended = ImageRequest(url: url, processors: [fixture.processor("p1"), fixture.processor("p2")])
        let response = try await fixture.pipeline.imageTask(with: extended).response

        // Then the cached [p1] is used: only p2 runs, nothing loads, and the result reports the memory cache it
        // was made from (Nuke's behaviour)
        #expect(response.cacheType == .memory)
        #expect(response.container.userInfo[MockImageProcessor.processorIDsKey] as? [String] == ["p1", "p2"])
        #expect(fixture.processed.count("p1") == 1)
        #expect(fixture.processed.count("p2") == 1)
        #expect(fixture.loader.createdTaskCount == 1)

        // And the same request again is a memory hit
        #expect(try await fixture.pipeline.imageTask(with: extended).response.cacheType == .memory)
        #expect(fixture.processed.count("p2") == 1)
    }

    @Test(arguments: [false, true])
    func aStoredPreviewIsShownAtOnceThenTheImageLoads(processed: Bool) async throws {
        // Given a preview in the memory cache for the request (as a progressive load leaves it)
        let fixture = PipelineFixture()
        let request = ImageRequest(url: Fixtures.url("a"), processors: processed ? [fixture.processor("p")] : [])
        var preview = container(2)
        preview.isPreview = true
        let cache = try #require(fixture.imageCache)
        cache[ImageCacheKey(request: request)] = preview

        // When the image is requested (events observed from before the start, which shows the preview at once)
        let (stream, sink) = AsyncStream.makeStream(of: ImageTask.Event.self)
        _ = fixture.pipeline.makeImageTask(request) { event in
            sink.yield(event)
            if case .finished = event { sink.finish() }
        }
        var events: [ImageTask.Event] = []
        for await event in stream { events.append(event) }

        // Then the preview comes first, from the memory cache, and the loaded image replaces it there
        guard case let .preview(shown) = events.first, case let .finished(.success(final)) = events.last else {
            Issue.record("events: \(events)")
            return
        }
        #expect(shown.cacheType == .memory && shown.image.width == 2)
        #expect(final.cacheType == nil && final.image.width == 1)
        #expect(fixture.loader.createdTaskCount == 1)
        let stored = try #require(cache[ImageCacheKey(request: request)])
        #expect(!stored.isPreview && stored.image.width == 1)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func coalescedOriginalRequestsShareTheDecodeAndTheOneAllowedToStoreStoresIt() async throws {
        // Given two requests for one original, sharing its load and decode, one of which may not be stored
        let fixture = PipelineFixture()
        let url = Fixtures.url("a")
        fixture.loader.isSuspended = true
        let unstored = fixture.pipeline.imageTask(with: ImageRequest(url: url, options: [.disableMemoryCacheWrites]))
        let stored = fixture.pipeline.imageTask(with: ImageRequest(url: url, options: [.disableMemoryCacheReads]))
        await fixture.loader.waitForLoads(count: 1)
        // An original's request needs no task of its own above the decode
        #expect(await fixture.liveTaskCounts() == [0, 1, 1, 2])
        fixture.loader.isSuspended = false

        // Then one load and one decode serve both, and the request that may write stores the image
        _ = try await (unstored.image, stored.image)
        #expect(fixture.loader.createdTaskCount == 1)
        #expect(fixture.decodes.total == 1)
        #expect(fixture.pipeline.cache[ImageRequest(url: url)] != nil)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func imageForRequestAnswersAMemoryHitDirectly() async throws {
        let fixture = PipelineFixture()
        let request = ImageRequest(url: Fixtures.url("a"))
        fixture.pipeline.cache[request] = container(3)
        #expect(try await fixture.pipeline.image(for: request).width == 3)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
        #expect(fixture.loader.createdTaskCount == 0)
        // Reads disabled: it loads
        #expect(
            try await fixture.pipeline.image(
                for: ImageRequest(url: Fixtures.url("a"), options: .disableMemoryCacheReads)
            ).width == 1)
        #expect(fixture.loader.createdTaskCount == 1)
    }

    @Test func requestOptionsDisableReadsAndWrites() async throws {
        let fixture = PipelineFixture()
        let url = Fixtures.url("a")
        _ = try await fixture.pipeline.image(for: ImageRequest(url: url, options: [.disableMemoryCacheWrites]))
        #expect(fixture.pipeline.cache[ImageRequest(url: url)] == nil)

        _ = try await fixture.pipeline.image(for: url)
        #expect(fixture.pipeline.cache[ImageRequest(url: url)] != nil)
        let response = try await fixture.pipeline.imageTask(
            with: ImageRequest(url: url, options: [.disableMemoryCacheReads])
        ).response
        #expect(response.cacheType == nil)
        #expect(fixture.loader.createdTaskCount == 3)
    }

    @Test func noImageCacheMeansNoHits() async throws {
        let fixture = PipelineFixture(imageCache: nil)
        _ = try await fixture.pipeline.image(for: Fixtures.url("a"))
        _ = try await fixture.pipeline.image(for: Fixtures.url("a"))
        #expect(fixture.loader.createdTaskCount == 2)
        #expect(fixture.pipeline.cache[ImageRequest(url: Fixtures.url("a"))] == nil)
    }

    @Test func cacheFacadeStoresRemovesAndHonoursOptions() {
        let fixture = PipelineFixture()
        let request = ImageRequest(url: Fixtures.url("a"))
        fixture.pipeline.cache.storeCachedImage(container(1), for: request)
        #expect(fixture.pipeline.cache.containsCachedImage(for: request))
        #expect(
            !fixture.pipeline.cache.containsCachedImage(
                for: ImageRequest(url: Fixtures.url("a"), options: [.disableMemoryCacheReads])))
        fixture.pipeline.cache[request] = nil
        #expect(!fixture.pipeline.cache.containsCachedImage(for: request))
        var preview = container(1)
        preview.isPreview = true
        fixture.pipeline.cache[request] = preview
        #expect(fixture.pipeline.cache[request] == nil)
        fixture.pipeline.cache[request] = container(1)
        fixture.pipeline.cache.removeAll()
        #expect(fixture.imageCache?.totalCount == 0)
    }
}
