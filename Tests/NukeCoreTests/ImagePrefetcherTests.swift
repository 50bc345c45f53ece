import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ImagePrefetcherTests {
    private let urls = (0..<5).map { Fixtures.url("\($0)") }

    @Test func memoryDestinationDecodesIntoTheMemoryCache() async throws {
        let fixture = PipelineFixture()
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        let done = Gate()
        prefetcher.didComplete = { done.open() }
        prefetcher.startPrefetching(with: [urls[0]])
        await done.wait()
        #expect(fixture.pipeline.cache[ImageRequest(url: urls[0])] != nil)
        #expect(fixture.decodes.total == 1)
        #expect(prefetcher.pendingCount == 0)
    }

    @Test func aBatchReportsCompletionOnceEvenWhenItsFirstPrefetchFinishesWhileItIsStillAdding() async throws {
        // Given a cache whose lookup of the second request (made by `startPrefetching` before adding it) waits
        // until the first prefetch has finished and been stored
        let cache = StallingCache(stallingKey: ImageCacheKey(request: ImageRequest(url: urls[1])))
        let fixture = PipelineFixture(imageCache: nil) { $0.imageCache = cache }
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline, maxConcurrentRequestCount: 1)
        let reports = LockedValueBox(0)
        let done = Gate()
        prefetcher.didComplete = {
            reports.withLock { $0 += 1 }
            done.open()
        }

        // When
        prefetcher.startPrefetching(with: [urls[0], urls[1]])
        await done.wait()
        while prefetcher.pendingCount > 0 || cache.storedCount < 2 {  // Until the second prefetch is done too.
            try await Task.sleep(for: .milliseconds(10))
        }
        await fixture.pipeline.flush()

        // Then the batch reported once, after both images were in the cache
        #expect(cache.didStall)
        #expect(reports.snapshot == 1)
        #expect(cache.storedCount == 2)
    }

    @Test func diskDestinationLoadsDataOnly() async throws {
        let dataCache = MockDataCache()
        let fixture = PipelineFixture {
            $0.dataCache = dataCache
            $0.httpCachePolicy = .ignoreHeaders  // Nuke\'s semantics: what is stored is fresh
        }
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline, destination: .diskCache)
        let done = Gate()
        prefetcher.didComplete = { done.open() }
        prefetcher.startPrefetching(with: [urls[0]])
        await done.wait()
        #expect(dataCache.store[urls[0].absoluteString] == MockDataLoader.defaultData)
        #expect(fixture.decodes.total == 0)
        #expect(fixture.pipeline.cache[ImageRequest(url: urls[0])] == nil)
    }

    @Test func atMostMaxConcurrentRequestCountRunAtOnce() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline, maxConcurrentRequestCount: 2)
        let done = Gate()
        prefetcher.didComplete = { done.open() }
        prefetcher.startPrefetching(with: urls)
        await fixture.loader.waitForLoads(count: 2)
        await fixture.pipeline.flush()
        #expect(fixture.loader.createdTaskCount == 2)
        #expect(prefetcher.pendingCount == 5)
        fixture.loader.isSuspended = false
        await done.wait()
        #expect(fixture.loader.createdTaskCount == 5)
    }

    @Test func equivalentRequestsArePrefetchedOnce() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        prefetcher.startPrefetching(with: [urls[0], urls[0]])
        prefetcher.startPrefetching(with: [ImageRequest(url: urls[0], priority: .high)])
        #expect(prefetcher.pendingCount == 1)
        let done = Gate()
        prefetcher.didComplete = { done.open() }
        fixture.loader.isSuspended = false
        await done.wait()
        #expect(fixture.loader.createdTaskCount == 1)
    }

    @Test func memoryCacheHitsAreSkipped() async throws {
        let fixture = PipelineFixture()
        fixture.pipeline.cache[ImageRequest(url: urls[0])] = ImageContainer(
            image: Fixtures.solidImage(width: 1, height: 1, color: .init(r: 0, g: 0, b: 0)))
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        prefetcher.startPrefetching(with: [urls[0]])
        #expect(prefetcher.pendingCount == 0)
        await fixture.pipeline.flush()
        #expect(fixture.loader.createdTaskCount == 0)
    }

    @Test func startThenStopInTheSameTickStartsNothing() async throws {
        let fixture = PipelineFixture()
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        // The graph is busy (as under load), so the starts wait in its mailbox behind this job.
        let busy = DispatchSemaphore(value: 0)
        fixture.pipeline.core.mailbox.postLater { busy.wait() }
        prefetcher.startPrefetching(with: urls)
        prefetcher.stopPrefetching(with: urls)
        busy.signal()
        await fixture.pipeline.flush()
        #expect(fixture.loader.createdTaskCount == 0)
        #expect(prefetcher.pendingCount == 0)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func pausedPrefetcherStartsNothingUntilResumed() async throws {
        let fixture = PipelineFixture()
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        prefetcher.isPaused = true
        prefetcher.startPrefetching(with: urls)
        await fixture.pipeline.flush()
        #expect(fixture.loader.createdTaskCount == 0)
        let done = Gate()
        prefetcher.didComplete = { done.open() }
        prefetcher.isPaused = false
        await done.wait()
        #expect(fixture.loader.createdTaskCount == 5)
    }

    @Test func prefetchesRunAtLowPriorityBehindRegularRequests() async throws {
        // Given one loading slot, taken
        let fixture = PipelineFixture { $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 1) }
        fixture.loader.isSuspended = true
        let blocker = fixture.pipeline.imageTask(with: Fixtures.url("blocker"))
        await fixture.loader.waitForLoads(count: 1)

        // When a prefetch and then a regular request queue up
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        prefetcher.startPrefetching(with: [urls[0]])
        let regular = fixture.pipeline.imageTask(with: urls[1])
        await fixture.pipeline.flush()
        let done = Gate()
        prefetcher.didComplete = { done.open() }
        fixture.loader.isSuspended = false
        _ = try await blocker.response
        _ = try await regular.response
        await done.wait()

        // Then the regular request loads first
        #expect(fixture.loader.requests.map { $0.url?.lastPathComponent } == ["blocker", "1", "0"])
    }

    @Test func priorityChangeReachesQueuedWork() async throws {
        let fixture = PipelineFixture { $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 1) }
        fixture.loader.isSuspended = true
        let blocker = fixture.pipeline.imageTask(with: Fixtures.url("blocker"))
        await fixture.loader.waitForLoads(count: 1)
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        prefetcher.startPrefetching(with: [urls[0]])
        let regular = fixture.pipeline.imageTask(with: urls[1])
        await fixture.pipeline.flush()

        // When the prefetcher's priority is raised above the regular request
        prefetcher.priority = .veryHigh
        await fixture.pipeline.flush()

        let done = Gate()
        prefetcher.didComplete = { done.open() }
        fixture.loader.isSuspended = false
        _ = try await blocker.response
        _ = try await regular.response
        await done.wait()
        #expect(fixture.loader.requests.map { $0.url?.lastPathComponent } == ["blocker", "0", "1"])
    }

    @Test func stopCancelsRunningPrefetches() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        prefetcher.startPrefetching(with: [urls[0], urls[1]])
        await fixture.loader.waitForLoads(count: 2)
        prefetcher.stopPrefetching()
        await fixture.loader.waitForCancellations(count: 2)
        #expect(prefetcher.pendingCount == 0)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func deinitCancelsEverything() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        var prefetcher: ImagePrefetcher? = ImagePrefetcher(pipeline: fixture.pipeline, destination: .diskCache)
        prefetcher?.startPrefetching(with: [urls[0]])
        await fixture.loader.waitForLoads(count: 1)
        prefetcher = nil
        await fixture.loader.waitForCancellations(count: 1)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }
}

/// An image cache whose read of one key waits (up to a second) until another image has been stored and a moment
/// has passed for the prefetch that stored it to finish.
private final class StallingCache: ImageCaching, @unchecked Sendable {
    // @unchecked: `images` and `didStallValue` are only touched under `lock`.
    private let lock = NSLock()
    private var images: [ImageCacheKey: ImageContainer] = [:]
    private var didStallValue = false
    private let stored = DispatchSemaphore(value: 0)
    private let stallingKey: ImageCacheKey

    init(stallingKey: ImageCacheKey) {
        self.stallingKey = stallingKey
    }

    var didStall: Bool { lock.withLock { didStallValue } }
    var storedCount: Int { lock.withLock { images.count } }

    subscript(key: ImageCacheKey) -> ImageContainer? {
        get {
            if key == stallingKey, lock.withLock({ !didStallValue }) {
                let isStored = stored.wait(timeout: .now() + 1) == .success
                Thread.sleep(forTimeInterval: 0.1)  // For the prefetch that stored the image to finish.
                lock.withLock { didStallValue = isStored }
            }
            return lock.withLock { images[key] }
        }
        set {
            lock.withLock { images[key] = newValue }
            if newValue != nil { stored.signal() }
        }
    }

    func removeAll() { lock.withLock { images.removeAll() } }
}
