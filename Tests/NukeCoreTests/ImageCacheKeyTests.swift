import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

/// `ImageCacheKey` is computed once per request value and kept with it; these tests pin that a kept key never
/// outlives a change to the request, and that keys compare by value, not by identity.
@Suite struct ImageCacheKeyTests {
    @Test func aKeptKeyIsDroppedWhenTheRequestChanges() {
        // Given a request whose key was read, and a copy taken then
        let url = Fixtures.url("a")
        var request = ImageRequest(url: url)
        let original = ImageCacheKey(request: request)
        let copy = request

        // When every input of the key changes in turn, Then the key follows each change
        var keys = [original]
        request.processors = [MockImageProcessor(id: "p")]
        keys.append(ImageCacheKey(request: request))
        request.thumbnail = .init(maxPixelSize: 10)
        keys.append(ImageCacheKey(request: request))
        request.scale = 2
        keys.append(ImageCacheKey(request: request))
        request.imageID = "b"
        keys.append(ImageCacheKey(request: request))
        #expect(Set(keys).count == keys.count)

        // And the copy keeps the key it had; options and priority, not part of the key, change nothing
        #expect(ImageCacheKey(request: copy) == original)
        var reprioritized = copy
        reprioritized.priority = .high
        reprioritized.options = [.disableMemoryCacheWrites]
        #expect(ImageCacheKey(request: reprioritized) == original)
    }

    @Test func keysOfSeparateRequestValuesCompareByValue() {
        // Given two request values built separately for the same image
        let first = ImageCacheKey(
            request: ImageRequest(url: Fixtures.url("a"), processors: [MockImageProcessor(id: "p")]))
        let second = ImageCacheKey(
            request: ImageRequest(url: Fixtures.url("a"), processors: [MockImageProcessor(id: "p")]))

        // Then their keys are equal with equal hashes, though computed separately
        #expect(first.storage !== second.storage)
        #expect(first == second && first.hashValue == second.hashValue)
        // And a custom key equal to the image identity is still a different key
        #expect(
            ImageCacheKey(key: Fixtures.url("a").absoluteString)
                != ImageCacheKey(request: ImageRequest(url: Fixtures.url("a"))))
    }

    @Test func concurrentReadsOfOneRequestAgreeOnOneKey() async {
        // Given one request value shared by many tasks, none of which has read its key yet
        let request = ImageRequest(url: Fixtures.url("a"), processors: [MockImageProcessor(id: "p")])

        // When they all read the key at once
        let keys = await withTaskGroup(of: ImageCacheKey.self) { group in
            for _ in 0..<64 {
                group.addTask { ImageCacheKey(request: request) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        // Then every reader got the one key that was kept
        let kept = ImageCacheKey(request: request)
        #expect(keys.allSatisfy { $0.storage === kept.storage })
    }
}
