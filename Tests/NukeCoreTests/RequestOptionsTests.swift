import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

@Suite struct RequestOptionsTests {
    struct Fixture {
        let loader = MockDataLoader()
        let dataCache = MockDataCache()
        let imageCache = ImageCache()
        let pipeline: ImagePipeline
        let url = Fixtures.url("a")

        init(configure: (inout ImagePipeline.Configuration) -> Void = { _ in }) {
            let loader = self.loader
            let dataCache = self.dataCache
            let imageCache = self.imageCache
            pipeline = ImagePipeline {
                $0.dataLoader = loader
                $0.dataCache = dataCache
                $0.imageCache = imageCache
                $0.makeImageDecoder = { _ in MockImageDecoder() }
                configure(&$0)
            }
        }

        func request(_ options: ImageRequest.Options) -> ImageRequest {
            ImageRequest(url: url, options: options)
        }
    }

    @Test func disableDiskCacheReads() async throws {
        let fixture = Fixture()
        fixture.dataCache.storeData(Data([1, 1, 1, 255]), for: fixture.url.absoluteString)
        let response = try await fixture.pipeline.imageTask(with: fixture.request(.disableDiskCacheReads)).response
        #expect(response.cacheType == nil)
        #expect(fixture.loader.createdTaskCount == 1)
        #expect(fixture.dataCache.readCount == 0)
    }

    @Test func disableDiskCacheWrites() async throws {
        let fixture = Fixture()
        _ = try await fixture.pipeline.image(for: fixture.request(.disableDiskCacheWrites))
        #expect(fixture.dataCache.writeCount == 0)
        _ = try await fixture.pipeline.image(for: fixture.request(.disableMemoryCacheReads))
        #expect(fixture.dataCache.writeCount == 1)
    }

    @Test func disableDiskCacheWritesNeedsEveryCoalescedRequestToAgree() async throws {
        // One of two coalesced requests allows writes: the shared download is stored.
        let fixture = Fixture()
        fixture.loader.isSuspended = true
        let task1 = fixture.pipeline.imageTask(with: fixture.request(.disableDiskCacheWrites))
        let task2 = fixture.pipeline.imageTask(
            with: ImageRequest(url: fixture.url, processors: [MockImageProcessor(id: "p")]))
        await fixture.loader.waitForLoads(count: 1)
        // The processed request reads its own disk cache entry off the graph before it joins the shared load;
        // the download must not finish before it has joined, or the store would see only the first request.
        #expect(await eventually { fixture.pipeline.statistics.coalescedJoins >= 1 })
        fixture.loader.isSuspended = false
        _ = try await task1.response
        _ = try await task2.response
        #expect(fixture.loader.createdTaskCount == 1)
        #expect(fixture.dataCache.writeCount == 1)
    }

    @Test func reloadIgnoringCachedDataSkipsBothCachesButStores() async throws {
        let fixture = Fixture()
        _ = try await fixture.pipeline.image(for: fixture.url)
        #expect(fixture.loader.createdTaskCount == 1)
        let response = try await fixture.pipeline.imageTask(with: fixture.request(.reloadIgnoringCachedData)).response
        #expect(response.cacheType == nil)
        #expect(fixture.loader.createdTaskCount == 2)
        #expect(fixture.dataCache.writeCount == 2)
    }

    @Test func returnCacheDataDontLoadUsesTheDiskCache() async throws {
        let fixture = Fixture()
        fixture.dataCache.storeData(Data([2, 2, 2, 255]), for: fixture.url.absoluteString)
        let response = try await fixture.pipeline.imageTask(with: fixture.request(.returnCacheDataDontLoad)).response
        #expect(response.cacheType == .disk)
        #expect(fixture.loader.createdTaskCount == 0)
    }

    @Test func returnCacheDataDontLoadFailsWithoutTouchingTheLoader() async throws {
        let fixture = Fixture()
        let task = fixture.pipeline.imageTask(
            with: ImageRequest(
                url: fixture.url, processors: [MockImageProcessor(id: "p")], options: .returnCacheDataDontLoad))
        #expect(await task.result.error?.caseName == "dataMissingInCache")
        #expect(fixture.loader.createdTaskCount == 0)
        #expect(await PipelineFixtureCounts.live(fixture.pipeline) == [0, 0, 0, 0])
    }

    @Test func returnCacheDataDontLoadDoesNotShareWithALoadingRequest() async throws {
        let fixture = Fixture()
        fixture.loader.isSuspended = true
        let loading = fixture.pipeline.imageTask(with: fixture.url)
        await fixture.loader.waitForLoads(count: 1)
        let cacheOnly = fixture.pipeline.imageTask(with: fixture.request(.returnCacheDataDontLoad))
        #expect(await cacheOnly.result.error?.caseName == "dataMissingInCache")
        fixture.loader.isSuspended = false
        _ = try await loading.response
    }

    @Test func skipDataLoadingQueueLoadsWhileTheQueueIsFull() async throws {
        let fixture = Fixture { $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 1) }
        fixture.pipeline.configuration.dataLoadingQueue.isSuspended = true
        let queued = fixture.pipeline.imageTask(with: Fixtures.url("queued"))
        let skipping = fixture.pipeline.imageTask(with: fixture.request(.skipDataLoadingQueue))
        _ = try await skipping.response
        #expect(fixture.loader.requests.map(\.url) == [fixture.url])
        fixture.pipeline.configuration.dataLoadingQueue.isSuspended = false
        _ = try await queued.response
    }

    @Test func skipDecompressionChangesNothing() async throws {
        let fixture = Fixture()
        let plain = try await fixture.pipeline.image(for: fixture.request(.disableMemoryCache))
        let skipping = try await fixture.pipeline.image(
            for: fixture.request([.skipDecompression, .disableMemoryCache]))
        #expect(plain == skipping)
    }

    @Test func sizeLimitWithContentLength() async throws {
        let fixture = Fixture { $0.maximumResponseDataSize = 10 }
        fixture.loader.setResponse(for: fixture.url, data: Data(count: 20))
        let task = fixture.pipeline.imageTask(with: fixture.url)
        #expect(await task.result.error?.caseName == "dataDownloadExceededMaximumSize")
        #expect(await PipelineFixtureCounts.live(fixture.pipeline) == [0, 0, 0, 0])
    }

    @Test(.timeLimit(.minutes(1)))
    func sizeLimitWithoutContentLength() async throws {
        // Given a server that doesn't announce the length and sends 4 chunks of 4 bytes
        let loader = ManualDataLoader()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.maximumResponseDataSize = 10
            $0.makeImageDecoder = { _ in MockImageDecoder() }
        }
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        let load = await loader.load(0)
        load.respond()
        for _ in 0..<4 { load.send(Data(count: 4)) }

        // Then the download is stopped as soon as it passes the limit: the load is cancelled (the loader isn't told
        // it's finished until then; a cancel after the loader finished would reach nothing) and the task fails.
        await load.waitForCancellation()  // Hangs (and fails on the time limit) if the cancel is lost.
        load.finish()  // Ignored: the load is cancelled.
        #expect(await task.result.error?.caseName == "dataDownloadExceededMaximumSize")
        #expect(task.currentProgress.completed == 8)
    }

    @Test func undecodableDiskDataIsDroppedAndReloaded() async throws {
        // Given garbage stored under the image's key, and a decoder that rejects it
        struct PickyDecoder: ImageDecoding {
            func decode(_ data: Data) throws -> ImageContainer {
                guard data != Data("garbage".utf8) else { throw MockImageDecoder.Error.scriptedFailure }
                return try MockImageDecoder().decode(data)
            }
        }
        let loader = MockDataLoader()
        let dataCache = MockDataCache()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.dataCache = dataCache
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in PickyDecoder() }
        }
        let key = Fixtures.url("a").absoluteString
        dataCache.storeData(Data("garbage".utf8), for: key)

        // When the image is requested
        let response = try await pipeline.imageTask(with: Fixtures.url("a")).response

        // Then it was loaded again and the good data replaced the garbage
        #expect(response.cacheType == nil)
        #expect(loader.createdTaskCount == 1)
        #expect(dataCache.removeCount == 1)
        #expect(await PipelineFixtureCounts.live(pipeline) == [0, 0, 0, 0])
    }

    @Test(.timeLimit(.minutes(1)))
    func loadsWaitWhileTooMuchDataWaitsForDecoders() async throws {
        // Given decoders that are stopped and a backlog limit of 10 bytes
        let fixture = Fixture {
            $0.decodingBacklogLimit = 10
            $0.imageDecodingQueue = TaskQueue(maxConcurrentOperationCount: 1)
        }
        fixture.pipeline.configuration.imageDecodingQueue.isSuspended = true
        for name in ["a", "b", "c"] {
            fixture.loader.setResponse(for: Fixtures.url(name), data: Data(repeating: 1, count: 8))
        }
        var tasks = ["a", "b"].map {
            fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url($0), options: .disableDiskCache))
        }

        // When two downloads finished (16 bytes wait for a decoder) and a third request arrives
        while fixture.pipeline.core.decodingBacklog.used < 16 { await fixture.pipeline.flush() }
        tasks.append(fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("c"), options: .disableDiskCache)))
        await fixture.pipeline.flush()

        // Then its load is held back…
        #expect(fixture.loader.createdTaskCount == 2)

        // …until decoders catch up
        fixture.pipeline.configuration.imageDecodingQueue.isSuspended = false
        for task in tasks { _ = try await task.response }
        #expect(fixture.loader.createdTaskCount == 3)
        #expect(fixture.pipeline.core.decodingBacklog.used == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelledDecodesGiveTheirBytesBack() async throws {
        let fixture = Fixture { $0.decodingBacklogLimit = 10 }
        fixture.pipeline.configuration.imageDecodingQueue.isSuspended = true
        fixture.loader.setResponse(for: fixture.url, data: Data(repeating: 1, count: 32))
        let task = fixture.pipeline.imageTask(with: fixture.request(.disableDiskCache))
        while fixture.pipeline.core.decodingBacklog.used < 32 { await fixture.pipeline.flush() }
        task.cancel()
        await fixture.pipeline.flush()
        #expect(fixture.pipeline.core.decodingBacklog.used == 0)
    }

    @Test func emptyBodyIsAnError() async throws {
        let fixture = Fixture()
        fixture.loader.setResponse(for: fixture.url, data: Data())
        #expect(await fixture.pipeline.imageTask(with: fixture.url).result.error?.caseName == "dataIsEmpty")
    }
}

enum PipelineFixtureCounts {
    /// Waits until the pipeline handled everything posted so far, then returns the live task counts.
    static func live(_ pipeline: ImagePipeline) async -> [Int] {
        await pipeline.flush()
        let counts = await pipeline.core.liveTaskCounts
        return [counts.loadImage, counts.originalImage, counts.originalData, counts.active]
    }
}
