import Foundation
import Nuke
import NukeTestKit
import Testing

/// `ImageCache`, `ImageCacheKey`, `ImagePipeline.Cache` and `DataCache`, used as an app uses them.
@Suite struct CachingTests {
    private func container(width: Int = 10) -> ImageContainer {
        ImageContainer(image: Fixtures.solidImage(width: width, height: 10, color: .init(r: 9, g: 9, b: 9)))
    }

    @Test func imageCacheStoresTrimsAndExpires() {
        // Given
        let cache = ImageCache(costLimit: ImageCache.defaultCostLimit, countLimit: 10)
        cache.ttl = 120
        cache.entryCostLimit = 0.5
        let key = ImageCacheKey(key: "avatar")

        // When
        cache[key] = container()
        cache[ImageCacheKey(key: "banner")] = container(width: 20)

        // Then
        #expect(cache[key]?.image.width == 10)
        #expect(cache.totalCount == 2 && cache.totalCost > 0)
        cache.trim(toCount: 1)
        #expect(cache.totalCount == 1)
        cache.trim(toCost: 0)
        #expect(cache.totalCount == 0)
        cache[key] = container()
        cache.removeAll()
        #expect(cache[key] == nil && cache.countLimit == 10 && cache.ttl == 120)
        cache.costLimit = 1
        #expect(cache.costLimit == 1 && ImageCache.shared.costLimit > 0)
        #expect(
            ImageCacheKey(key: "a") == ImageCacheKey(key: "a") && ImageCacheKey(key: "a") != ImageCacheKey(key: "b"))
        #expect(ImageCacheKey(request: ImageRequest(url: URL(string: "https://a.com/x.png"))).hashValue != 0 || true)
    }

    @Test func pipelineCacheByURLAndRequest() async throws {
        // Given a loaded image
        let backend = try AppBackend()
        let dataCache = InMemoryDataCache()
        let pipeline = makeAppPipeline { $0.dataCache = dataCache }
        let request = ImageRequest(url: backend.pngURL)
        _ = try await pipeline.image(for: request)

        // Then both subscripts and every method see it
        let cache = pipeline.cache
        #expect(cache[backend.pngURL]?.image.width == SampleImages.width)
        #expect(cache[request] != nil)
        #expect(cache.containsCachedImage(for: request))
        #expect(cache.cachedImage(for: request, caches: [.memory]) != nil)
        #expect(cache.containsData(for: request))
        #expect(cache.cachedData(for: request) == (try SampleImages.png()))
        #expect(dataCache.keys.contains(cache.makeDataCacheKey(for: request)))
        #expect(cache.makeImageCacheKey(for: request) == ImageCacheKey(request: request))

        // When removing and storing
        cache.removeCachedImage(for: request, caches: .memory)
        #expect(cache[request] == nil && cache.containsCachedImage(for: request, caches: .disk))
        cache.removeCachedData(for: request)
        #expect(!cache.containsData(for: request))
        cache.storeCachedData(Data([1, 2]), for: request)
        cache.storeCachedImage(container(), for: request, caches: .all)
        #expect(cache[request]?.image.width == 10)
        cache[backend.otherURL] = container(width: 3)
        #expect(cache[ImageRequest(url: backend.otherURL)]?.image.width == 3)
        cache.removeAll(caches: ImagePipeline.Cache.Caches(rawValue: ImagePipeline.Cache.Caches.all.rawValue))
        #expect(cache[request] == nil && dataCache.keys.isEmpty)

        // And a memory-cache hit is reported as one
        _ = try await pipeline.image(for: request)
        #expect(try await pipeline.imageTask(with: request).response.cacheType == .memory)
    }

    @Test func dataCacheInATemporaryDirectory() throws {
        // Given
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DataCache(path: directory)
        cache.sizeLimit = 1024 * 1024
        cache.sweepInterval = 60
        cache.isSweepEnabled = false

        // When
        cache.storeData(Data("one".utf8), for: "a")
        cache["b"] = Data("two".utf8)
        cache.flush()

        // Then
        #expect(cache.cachedData(for: "a") == Data("one".utf8))
        #expect(cache["b"] == Data("two".utf8) && cache.containsData(for: "b"))
        #expect(cache.totalCount == 2 && cache.totalSize == 6 && cache.totalAllocatedSize >= 6)
        let fileURL = try #require(cache.url(for: "a"))
        #expect(fileURL.standardizedFileURL.path.hasPrefix(directory.standardizedFileURL.path))
        #expect(cache.filename(for: "a") == DataCache.filename(for: "a"))
        #expect(cache.path.standardizedFileURL == directory.standardizedFileURL)
        cache.removeData(for: "a")
        cache.flush(for: "a")
        #expect(cache["a"] == nil)
        cache.removeAll()
        cache.flush()
        #expect(cache.totalCount == 0 && cache.sizeLimit == 1024 * 1024 && cache.sweepInterval == 60)
        cache.sweep()
        cache.queue.sync {}
    }

    @Test func dataCacheByNameWithFilenameGenerator() throws {
        // Given a uniquely named cache in the user cache directory, with the app's filenames
        let name = "nuke-compat-\(UUID().uuidString)"
        let cache = try DataCache(name: name, filenameGenerator: { "app-" + $0 })
        defer { try? FileManager.default.removeItem(at: cache.path) }
        let plain = try DataCache(name: name + "-plain")
        defer { try? FileManager.default.removeItem(at: plain.path) }

        // When
        cache["k"] = Data([7])
        cache.flush()

        // Then
        #expect(cache.path.lastPathComponent == name && cache.isSweepEnabled)
        #expect(cache.url(for: "k")?.lastPathComponent == "app-k")
        #expect(FileManager.default.fileExists(atPath: cache.path.appendingPathComponent("app-k").path))
        #expect(plain.filename(for: "k") == DataCache.filename(for: "k"))
    }
}
