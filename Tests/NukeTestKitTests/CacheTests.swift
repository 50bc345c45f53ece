import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite struct MockDataCacheTests {
    @Test func storesReadsAndCounts() {
        let cache = MockDataCache()
        #expect(cache.cachedData(for: "a") == nil)
        cache.storeData(Data([1]), for: "a")
        cache.storeData(Data([2]), for: "a")
        cache.storeData(Data([3]), for: "b")

        #expect(cache.cachedData(for: "a") == Data([2]))
        #expect(cache.containsData(for: "b"))
        #expect(!cache.containsData(for: "c"))
        #expect(cache.store == ["a": Data([2]), "b": Data([3])])
        #expect(cache.readCount == 2)
        #expect(cache.writeCount == 3)
        #expect(cache.removeCount == 0)
    }

    @Test func removesAndCounts() {
        let cache = MockDataCache()
        cache.storeData(Data([1]), for: "a")
        cache.storeData(Data([2]), for: "b")
        cache.removeData(for: "a")
        cache.removeData(for: "missing")
        #expect(cache.store == ["b": Data([2])])
        #expect(cache.removeCount == 2)

        cache.removeAll()
        #expect(cache.store.isEmpty)
        #expect(cache.removeCount == 2)
        #expect(cache.writeCount == 2)
    }
}

@Suite struct MockImageCacheTests {
    private let image = ImageContainer(image: Fixtures.solidImage(width: 1, height: 1, color: .init(r: 1, g: 2, b: 3)))

    @Test func storesReadsAndCounts() {
        let cache = MockImageCache()
        let key = ImageCacheKey(request: ImageRequest(url: Fixtures.url("a")))
        let other = ImageCacheKey(request: ImageRequest(url: Fixtures.url("b")))
        #expect(cache[key] == nil)
        cache[key] = image
        #expect(cache[key]?.image == image.image)
        #expect(cache[other] == nil)
        #expect(cache.count == 1)
        #expect(cache.readCount == 3)
        #expect(cache.writeCount == 1)
    }

    @Test func settingNilRemovesAndCountsAsWrite() {
        let cache = MockImageCache()
        let key = ImageCacheKey(request: ImageRequest(url: Fixtures.url("a")))
        cache[key] = image
        cache[key] = nil
        #expect(cache.count == 0)
        #expect(cache.writeCount == 2)
        #expect(cache.readCount == 0)
    }

    @Test func removeAllKeepsCounters() {
        let cache = MockImageCache()
        cache[ImageCacheKey(request: ImageRequest(url: Fixtures.url("a")))] = image
        cache[ImageCacheKey(request: ImageRequest(url: Fixtures.url("b")))] = image
        #expect(cache.count == 2)
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.writeCount == 2)
    }
}
