import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

/// Which keys each `DataCachePolicy` writes, how many encodes and loads it takes (Nuke's matrix).
@Suite struct DataCachePolicyTests {
    struct Fixture {
        let loader = MockDataLoader()
        let dataCache = MockDataCache()
        let encodes = CallCounter()
        let pipeline: ImagePipeline
        let url = Fixtures.url("a")
        var key: String { url.absoluteString }

        init(_ policy: ImagePipeline.DataCachePolicy, imageCache: ImageCache? = nil) {
            let loader = self.loader
            let dataCache = self.dataCache
            let encodes = self.encodes
            pipeline = ImagePipeline {
                $0.dataLoader = loader
                $0.dataCache = dataCache
                $0.httpCachePolicy = .ignoreHeaders  // Nuke's semantics: what is stored is fresh
                $0.imageCache = imageCache
                $0.dataCachePolicy = policy
                $0.makeImageDecoder = { _ in MockImageDecoder() }
                $0.makeImageEncoder = { _ in MockImageEncoder(counter: encodes) }
            }
        }

        func processed(_ id: String = "p1") -> ImageRequest {
            ImageRequest(url: url, processors: [MockImageProcessor(id: id)])
        }

        /// Loads the requests at once and waits for every disk write.
        func load(_ requests: ImageRequest...) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for request in requests {
                    group.addTask { _ = try await pipeline.image(for: request) }
                }
                try await group.waitForAll()
            }
            await pipeline.core.pendingEncodes.wait()
        }

        var keys: Set<String> { Set(dataCache.store.keys) }

        /// Waits until `requests` requests share the suspended load. A processed request reads its own disk cache
        /// entry off the graph before it joins, so the load must not finish before then.
        func waitUntilSharing(_ requests: Int) async {
            await loader.waitForLoads(count: 1)
            #expect(await eventually { pipeline.statistics.coalescedJoins >= requests - 1 })
        }
    }

    // MARK: automatic

    @Test func automaticWithProcessorsStoresTheEncodedImage() async throws {
        let fixture = Fixture(.automatic)
        try await fixture.load(fixture.processed())
        #expect(fixture.encodes.total == 1)
        #expect(fixture.keys == [fixture.key + "p1"])
        #expect(fixture.dataCache.writeCount == 1)
    }

    @Test func automaticWithoutProcessorsStoresOriginalData() async throws {
        let fixture = Fixture(.automatic)
        try await fixture.load(ImageRequest(url: fixture.url))
        #expect(fixture.encodes.total == 0)
        #expect(fixture.keys == [fixture.key])
        #expect(fixture.dataCache.store[fixture.key] == MockDataLoader.defaultData)
    }

    @Test func automaticWithTwoRequestsStoresBoth() async throws {
        let fixture = Fixture(.automatic)
        fixture.loader.isSuspended = true
        async let load: Void = fixture.load(fixture.processed(), ImageRequest(url: fixture.url))
        await fixture.waitUntilSharing(2)
        fixture.loader.isSuspended = false
        try await load
        #expect(fixture.encodes.total == 1)
        #expect(fixture.keys == [fixture.key, fixture.key + "p1"])
        #expect(fixture.dataCache.writeCount == 2)
        #expect(fixture.loader.createdTaskCount == 1)
    }

    @Test func automaticWithOriginalInMemoryStoresOnlyTheProcessedImage() async throws {
        let imageCache = ImageCache()
        let fixture = Fixture(.automatic, imageCache: imageCache)
        fixture.pipeline.cache[ImageRequest(url: fixture.url)] = ImageContainer(
            image: Fixtures.solidImage(width: 1, height: 1, color: .init(r: 1, g: 1, b: 1)))
        try await fixture.load(fixture.processed())
        #expect(fixture.encodes.total == 1)
        #expect(fixture.keys == [fixture.key + "p1"])
        #expect(fixture.loader.createdTaskCount == 0)
    }

    // MARK: storeEncodedImages

    @Test func storeEncodedImagesWithProcessors() async throws {
        let fixture = Fixture(.storeEncodedImages)
        try await fixture.load(fixture.processed())
        #expect(fixture.encodes.total == 1)
        #expect(fixture.keys == [fixture.key + "p1"])
    }

    @Test func storeEncodedImagesWithoutProcessorsReencodesTheOriginal() async throws {
        let fixture = Fixture(.storeEncodedImages)
        try await fixture.load(ImageRequest(url: fixture.url))
        #expect(fixture.encodes.total == 1)
        #expect(fixture.keys == [fixture.key])
        #expect(fixture.dataCache.store[fixture.key] == Data([0x4D, 0x4F, 0x43, 0x4B]))
    }

    @Test func storeEncodedImagesWithTwoRequests() async throws {
        // Both requests share the load (held until they do): a processed request that started only after the
        // original was stored would read it from disk, and an image made from disk data is not stored again.
        let fixture = Fixture(.storeEncodedImages)
        fixture.loader.isSuspended = true
        async let load: Void = fixture.load(fixture.processed(), ImageRequest(url: fixture.url))
        await fixture.waitUntilSharing(2)
        fixture.loader.isSuspended = false
        try await load
        #expect(fixture.encodes.total == 2)
        #expect(fixture.keys == [fixture.key, fixture.key + "p1"])
        #expect(fixture.dataCache.writeCount == 2)
    }

    // MARK: storeOriginalData

    @Test func storeOriginalDataWithProcessors() async throws {
        let fixture = Fixture(.storeOriginalData)
        try await fixture.load(fixture.processed())
        #expect(fixture.encodes.total == 0)
        #expect(fixture.keys == [fixture.key])
    }

    @Test func storeOriginalDataWithTwoRequests() async throws {
        let fixture = Fixture(.storeOriginalData)
        fixture.loader.isSuspended = true
        async let load: Void = fixture.load(fixture.processed(), ImageRequest(url: fixture.url))
        await fixture.waitUntilSharing(2)
        fixture.loader.isSuspended = false
        try await load
        #expect(fixture.encodes.total == 0)
        #expect(fixture.keys == [fixture.key])
        #expect(fixture.dataCache.writeCount == 1)
    }

    // MARK: storeAll

    @Test func storeAllWithProcessorsStoresBoth() async throws {
        let fixture = Fixture(.storeAll)
        try await fixture.load(fixture.processed())
        #expect(fixture.encodes.total == 1)
        #expect(fixture.keys == [fixture.key, fixture.key + "p1"])
        #expect(fixture.dataCache.writeCount == 2)
    }

    @Test func storeAllWithoutProcessorsStoresOriginalOnly() async throws {
        let fixture = Fixture(.storeAll)
        try await fixture.load(ImageRequest(url: fixture.url))
        #expect(fixture.encodes.total == 0)
        #expect(fixture.keys == [fixture.key])
    }

    // MARK: The whole matrix

    /// For each policy: (keys written, encodes) without processors, with one, and for both at once.
    @Test(arguments: [
        (ImagePipeline.DataCachePolicy.automatic, [[""], ["p1"], ["", "p1"]], [0, 1, 1]),
        (.storeOriginalData, [[""], [""], [""]], [0, 0, 0]),
        (.storeEncodedImages, [[""], ["p1"], ["", "p1"]], [1, 1, 2]),
        (.storeAll, [[""], ["", "p1"], ["", "p1"]], [0, 1, 1]),
    ])
    func matrix(policy: ImagePipeline.DataCachePolicy, keys: [[String]], encodes: [Int]) async throws {
        for (index, scenario) in ["plain", "processed", "both"].enumerated() {
            let fixture = Fixture(policy)
            fixture.loader.isSuspended = true
            let requests: [ImageRequest] =
                switch scenario {
                case "plain": [ImageRequest(url: fixture.url)]
                case "processed": [fixture.processed()]
                default: [fixture.processed(), ImageRequest(url: fixture.url)]
                }
            let tasks = requests.map { fixture.pipeline.imageTask(with: $0) }
            await fixture.waitUntilSharing(requests.count)
            fixture.loader.isSuspended = false
            for task in tasks { _ = try await task.response }
            await fixture.pipeline.core.pendingEncodes.wait()

            #expect(fixture.keys == Set(keys[index].map { fixture.key + $0 }), "\(policy) \(scenario)")
            #expect(fixture.encodes.total == encodes[index], "\(policy) \(scenario)")
            #expect(fixture.loader.createdTaskCount == 1, "\(policy) \(scenario)")
        }
    }

    // MARK: Thumbnails, data tasks, local resources

    @Test(arguments: [
        ImagePipeline.DataCachePolicy.automatic, .storeOriginalData, .storeAll, .storeEncodedImages,
    ])
    func thumbnailRequests(policy: ImagePipeline.DataCachePolicy) async throws {
        let fixture = Fixture(policy)
        var request = ImageRequest(url: fixture.url)
        request.thumbnail = .init(maxPixelSize: 10)
        try await fixture.load(request)
        let thumbnailKey = fixture.key + request.thumbnail!.identifier
        // A thumbnail is a processed image: stored encoded like one.
        switch policy {
        case .storeEncodedImages, .automatic:
            #expect(fixture.keys == [thumbnailKey])
            #expect(fixture.encodes.total == 1)
        case .storeAll:
            #expect(fixture.keys == [fixture.key, thumbnailKey])
            #expect(fixture.encodes.total == 1)
        case .storeOriginalData:
            #expect(fixture.keys == [fixture.key])
            #expect(fixture.encodes.total == 0)
        }
    }

    @Test func thumbnailRequestReusesCachedOriginalData() async throws {
        // Given original data on disk
        let fixture = Fixture(.storeOriginalData)
        fixture.dataCache.storeData(Data([5, 6, 7, 255]), for: fixture.key)

        // When a thumbnail of it is requested
        var request = ImageRequest(url: fixture.url)
        request.thumbnail = .init(maxPixelSize: 10)
        let response = try await fixture.pipeline.imageTask(with: request).response

        // Then it is decoded from the disk, without loading
        #expect(response.cacheType == .disk)
        #expect(response.image.pixel(x: 0, y: 0) == .init(r: 5, g: 6, b: 7, a: 255))
        #expect(fixture.loader.createdTaskCount == 0)
    }

    @Test(arguments: [
        ImagePipeline.DataCachePolicy.automatic, .storeOriginalData, .storeAll, .storeEncodedImages,
    ])
    func dataTasks(policy: ImagePipeline.DataCachePolicy) async throws {
        let fixture = Fixture(policy)
        _ = try await fixture.pipeline.data(for: fixture.url)
        #expect(fixture.encodes.total == 0)
        #expect(fixture.keys == (policy == .storeEncodedImages ? [] : [fixture.key]))
    }

    @Test(arguments: [
        ImagePipeline.DataCachePolicy.automatic, .storeOriginalData, .storeAll, .storeEncodedImages,
    ])
    func localOriginalsAreNeverStoredButProcessedImagesAre(policy: ImagePipeline.DataCachePolicy) async throws {
        let fixture = Fixture(policy)
        let dataURL = try #require(URL(string: "data:image/x-test;base64,AQIDBA=="))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).bin")
        try Data([1, 2, 3, 4]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for url in [dataURL, file] {
            try await fixture.load(
                ImageRequest(url: url), ImageRequest(url: url, processors: [MockImageProcessor(id: "p1")]))
        }
        // As in Nuke: the original data of a local resource is never stored, its processed images are (one per
        // URL) when the policy stores encoded images.
        let processedStored = policy == .storeOriginalData ? 0 : 2
        #expect(fixture.dataCache.writeCount == processedStored)
        #expect(fixture.encodes.total == processedStored)
        #expect(!fixture.dataCache.containsData(for: file.absoluteString))
    }

    // MARK: Reading

    @Test func processedImageOnDiskSkipsLoadingAndProcessing() async throws {
        let fixture = Fixture(.automatic)
        let processed = CallCounter()
        fixture.dataCache.storeData(Data([9, 9, 9, 255]), for: fixture.key + "p1")
        let request = ImageRequest(url: fixture.url, processors: [MockImageProcessor(id: "p1", counter: processed)])
        let response = try await fixture.pipeline.imageTask(with: request).response
        #expect(response.cacheType == .disk)
        #expect(processed.total == 0)
        #expect(fixture.loader.createdTaskCount == 0)
        await fixture.pipeline.core.pendingEncodes.wait()
        #expect(fixture.encodes.total == 0)  // An image from the disk isn't stored again.
    }

    @Test func intermediateDiskResultServesALongerChain() async throws {
        // Given [p1] encoded on disk
        let fixture = Fixture(.automatic)
        let processed = CallCounter()
        fixture.dataCache.storeData(Data([9, 9, 9, 255]), for: fixture.key + "p1")

        // When [p1, p2] is requested
        let request = ImageRequest(
            url: fixture.url,
            processors: [
                MockImageProcessor(id: "p1", counter: processed), MockImageProcessor(id: "p2", counter: processed),
            ])
        let response = try await fixture.pipeline.imageTask(with: request).response

        // Then [p1] comes from the disk and only p2 runs
        #expect(processed.count("p1") == 0)
        #expect(processed.count("p2") == 1)
        #expect(fixture.loader.createdTaskCount == 0)
        #expect(response.cacheType == .disk)
        #expect(fixture.dataCache.readCount >= 1)
    }

    @Test func storedProcessedImageIsReadBackByTheNextPipeline() async throws {
        let fixture = Fixture(.automatic)
        try await fixture.load(fixture.processed())

        // A second pipeline over the same disk cache, with an encoder/decoder pair that round-trips
        let loader = MockDataLoader()
        let dataCache = fixture.dataCache
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.dataCache = dataCache
            $0.httpCachePolicy = .ignoreHeaders  // Nuke's semantics: what is stored is fresh
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in MockImageDecoder() }
        }
        let response = try await pipeline.imageTask(with: fixture.processed()).response
        #expect(response.cacheType == .disk)
        #expect(loader.createdTaskCount == 0)
    }

    @Test func cacheFacadeDiskSide() async throws {
        let fixture = Fixture(.automatic)
        let request = fixture.processed()
        #expect(fixture.pipeline.cache.makeDataCacheKey(for: request) == fixture.key + "p1")
        fixture.pipeline.cache.storeCachedData(Data([1, 2, 3, 4]), for: request)
        #expect(fixture.pipeline.cache.containsData(for: request))
        #expect(fixture.pipeline.cache.cachedData(for: request) == Data([1, 2, 3, 4]))
        #expect(fixture.pipeline.cache.cachedImage(for: request, caches: .disk)?.image.width == 1)
        #expect(fixture.pipeline.cache.cachedImage(for: request, caches: .memory) == nil)
        var disabled = request
        disabled.options = [.disableDiskCacheReads]
        #expect(fixture.pipeline.cache.cachedData(for: disabled) == nil)

        fixture.pipeline.cache.removeCachedImage(for: request, caches: .disk)
        #expect(!fixture.pipeline.cache.containsData(for: request))

        fixture.pipeline.cache.storeCachedImage(
            ImageContainer(image: Fixtures.solidImage(width: 1, height: 1, color: .init(r: 0, g: 0, b: 0))),
            for: request, caches: .disk)
        #expect(fixture.encodes.total == 1)
        #expect(fixture.pipeline.cache.containsCachedImage(for: request, caches: .disk))
        fixture.pipeline.cache.removeAll(caches: .all)
        #expect(fixture.dataCache.store.isEmpty)
    }
}
