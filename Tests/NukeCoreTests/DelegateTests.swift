import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records task events and customises the pipeline per request.
private final class RecordingDelegate: ImagePipeline.Delegate, @unchecked Sendable {
    // @unchecked: `log` is guarded by `lock`; the rest is immutable.
    private let lock = NSLock()
    private var _log: [String] = []
    var log: [String] { lock.withLock { _log } }

    var headerValue: String?
    var willLoadError: (any Error)?
    var customKey: String?
    var otherLoader: MockDataLoader?
    var otherImageCache: ImageCache?
    var otherDataCache: MockDataCache?

    private func record(_ entry: String) { lock.withLock { _log.append(entry) } }

    func willLoadData(
        for request: ImageRequest, urlRequest: URLRequest, pipeline: ImagePipeline
    ) async throws
        -> URLRequest
    {
        record("willLoadData")
        if let willLoadError { throw willLoadError }
        var urlRequest = urlRequest
        if let headerValue { urlRequest.setValue(headerValue, forHTTPHeaderField: "Authorization") }
        return urlRequest
    }

    func cacheKey(for request: ImageRequest, pipeline: ImagePipeline) -> String? { customKey }

    func dataLoader(for request: ImageRequest, pipeline: ImagePipeline) -> any DataLoading {
        if let otherLoader, request.url?.lastPathComponent == "other" { return otherLoader }
        return pipeline.configuration.dataLoader
    }

    func imageCache(for request: ImageRequest, pipeline: ImagePipeline) -> (any ImageCaching)? {
        request.url?.lastPathComponent == "other" ? otherImageCache : pipeline.configuration.imageCache
    }

    func dataCache(for request: ImageRequest, pipeline: ImagePipeline) -> (any DataCaching)? {
        request.url?.lastPathComponent == "other" ? otherDataCache : pipeline.configuration.dataCache
    }

    func imageDecoder(for context: ImageDecodingContext, pipeline: ImagePipeline) -> (any ImageDecoding)? {
        record("decoder")
        return MockImageDecoder()
    }

    func imageEncoder(for context: ImageEncodingContext, pipeline: ImagePipeline) -> any ImageEncoding {
        record("encoder")
        return MockImageEncoder()
    }

    func imageTaskCreated(_ task: ImageTask, pipeline: ImagePipeline) { record("created") }

    func imageTaskDidStart(_ task: ImageTask, pipeline: ImagePipeline) { record("started") }

    func imageTask(_ task: ImageTask, didUpdateProgress progress: ImageTask.Progress, pipeline: ImagePipeline) {
        record("progress \(progress)")
    }

    func imageTask(_ task: ImageTask, didReceivePreview response: ImageResponse, pipeline: ImagePipeline) {
        record("preview")
    }

    func imageTask(
        _ task: ImageTask,
        didCompleteWithResult result: Result<ImageResponse, ImagePipeline.Error>,
        pipeline: ImagePipeline
    ) {
        switch result {
        case .success: record("finished")
        case let .failure(error): record("failed \(error.caseName)")
        }
    }
}

@Suite struct DelegateTests {
    private func makePipeline(
        _ delegate: RecordingDelegate,
        loader: MockDataLoader,
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(dataLoader: loader, imageCache: nil)
        configure(&configuration)
        return ImagePipeline(configuration: configuration, delegate: delegate)
    }

    @Test func taskEventsArriveInOrder() async throws {
        let delegate = RecordingDelegate()
        let loader = MockDataLoader()
        loader.chunkCount = 2
        let pipeline = makePipeline(delegate, loader: loader)
        _ = try await pipeline.image(for: Fixtures.url("a"))
        await pipeline.flush()
        #expect(
            delegate.log == [
                "created", "started", "willLoadData", "progress 10/20", "progress 20/20", "decoder", "finished",
            ])
    }

    @Test func cancelledTaskIsReportedOnce() async throws {
        let delegate = RecordingDelegate()
        let loader = MockDataLoader()
        loader.isSuspended = true
        let pipeline = makePipeline(delegate, loader: loader)
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        await loader.waitForLoads(count: 1)
        task.cancel()
        task.cancel()
        await pipeline.flush()
        #expect(delegate.log == ["created", "started", "willLoadData", "failed cancelled"])
    }

    @Test func invalidationReportsRunningTasksAsCancelled() async throws {
        let delegate = RecordingDelegate()
        let loader = MockDataLoader()
        loader.isSuspended = true
        let pipeline = makePipeline(delegate, loader: loader)
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        await loader.waitForLoads(count: 1)
        pipeline.invalidate()
        #expect(await task.result.error?.caseName == "cancelled")
        await pipeline.flush()
        #expect(delegate.log == ["created", "started", "willLoadData", "failed cancelled"])
    }

    @Test func willLoadDataAddsHeadersWithoutChangingSharingOrKeys() async throws {
        // Given a delegate that adds an Authorization header
        let delegate = RecordingDelegate()
        delegate.headerValue = "Bearer token"
        let loader = MockDataLoader()
        let dataCache = MockDataCache()
        loader.isSuspended = true
        let pipeline = makePipeline(delegate, loader: loader) { $0.dataCache = dataCache }

        // When two requests for the same URL load
        let task1 = pipeline.imageTask(with: Fixtures.url("a"))
        let task2 = pipeline.imageTask(with: Fixtures.url("a"))
        await loader.waitForLoads(count: 1)
        await pipeline.flush()
        loader.isSuspended = false
        _ = try await task1.response
        _ = try await task2.response

        // Then the loader saw the header, the load was shared, and the cache key is the plain URL
        #expect(loader.requests.count == 1)
        #expect(loader.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer token")
        #expect(Array(dataCache.store.keys) == [Fixtures.url("a").absoluteString])
    }

    @Test func willLoadDataThrowingFailsTheTask() async throws {
        struct Denied: Error {}
        let delegate = RecordingDelegate()
        delegate.willLoadError = Denied()
        let loader = MockDataLoader()
        let pipeline = makePipeline(delegate, loader: loader)
        let error = await pipeline.imageTask(with: Fixtures.url("a")).result.error
        #expect(error?.caseName == "dataLoadingFailed")
        #expect(error?.underlyingError is Denied)
        #expect(loader.createdTaskCount == 0)
    }

    @Test func customCacheKeyIsUsedForTheDiskCache() async throws {
        let delegate = RecordingDelegate()
        delegate.customKey = "custom-key"
        let dataCache = MockDataCache()
        let pipeline = makePipeline(delegate, loader: MockDataLoader()) { $0.dataCache = dataCache }
        _ = try await pipeline.image(for: Fixtures.url("a"))
        #expect(Array(dataCache.store.keys) == ["custom-key"])
        #expect(pipeline.cache.makeDataCacheKey(for: ImageRequest(url: Fixtures.url("b"))) == "custom-key")
    }

    @Test func perRequestLoaderAndCaches() async throws {
        // Given a delegate that sends "other" to its own loader and caches
        let delegate = RecordingDelegate()
        let otherLoader = MockDataLoader()
        let otherImageCache = ImageCache()
        let otherDataCache = MockDataCache()
        delegate.otherLoader = otherLoader
        delegate.otherImageCache = otherImageCache
        delegate.otherDataCache = otherDataCache
        let loader = MockDataLoader()
        let dataCache = MockDataCache()
        let imageCache = ImageCache()
        let pipeline = makePipeline(delegate, loader: loader) {
            $0.dataCache = dataCache
            $0.httpCachePolicy = .ignoreHeaders  // Nuke's semantics: what is stored is fresh
            $0.imageCache = imageCache
        }

        // When both load
        _ = try await pipeline.image(for: Fixtures.url("other"))
        _ = try await pipeline.image(for: Fixtures.url("main"))

        // Then each used its own loader and caches
        #expect(otherLoader.createdTaskCount == 1)
        #expect(loader.createdTaskCount == 1)
        #expect(otherDataCache.store.count == 1 && dataCache.store.count == 1)
        #expect(otherImageCache.totalCount == 1 && imageCache.totalCount == 1)
        #expect(pipeline.cache[ImageRequest(url: Fixtures.url("other"))] != nil)
    }

    @Test func encoderComesFromTheDelegate() async throws {
        let delegate = RecordingDelegate()
        let dataCache = MockDataCache()
        let pipeline = makePipeline(delegate, loader: MockDataLoader()) {
            $0.dataCache = dataCache
            $0.httpCachePolicy = .ignoreHeaders  // Nuke's semantics: what is stored is fresh
            $0.dataCachePolicy = .storeEncodedImages
        }
        _ = try await pipeline.image(for: Fixtures.url("a"))
        await pipeline.core.pendingEncodes.wait()
        #expect(delegate.log.contains("encoder"))
        #expect(dataCache.store[Fixtures.url("a").absoluteString] == Data([0x4D, 0x4F, 0x43, 0x4B]))
    }

    @Test func lifetimeAfterDiskHitAndCacheOnlyMiss() async throws {
        let delegate = RecordingDelegate()
        let dataCache = MockDataCache()
        dataCache.storeData(Data([1, 2, 3, 4]), for: Fixtures.url("a").absoluteString)
        let pipeline = makePipeline(delegate, loader: MockDataLoader()) { $0.dataCache = dataCache }

        #expect(try await pipeline.imageTask(with: Fixtures.url("a")).response.cacheType == .disk)
        #expect(await PipelineFixtureCounts.live(pipeline) == [0, 0, 0, 0])

        let missing = ImageRequest(url: Fixtures.url("b"), options: [.returnCacheDataDontLoad])
        #expect(await pipeline.imageTask(with: missing).result.error?.caseName == "dataMissingInCache")
        #expect(await PipelineFixtureCounts.live(pipeline) == [0, 0, 0, 0])
    }
}
