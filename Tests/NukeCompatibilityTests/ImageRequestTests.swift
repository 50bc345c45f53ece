import Foundation
import Nuke
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ImageRequest`: every initialiser, options, priority, user info and thumbnail options.
@Suite struct ImageRequestTests {
    @Test func everyInitialiserLoadsItsImage() async throws {
        // Given one request per initialiser
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        let png = try SampleImages.png(width: 8, height: 4)
        let literal: ImageRequest = "https://example.com/image.png"
        var urlRequest = URLRequest(url: backend.jpegURL)
        urlRequest.setValue("compat", forHTTPHeaderField: "X-App")
        let requests = [
            ImageRequest(url: backend.pngURL, processors: [.resize(width: 32)], priority: .high, options: []),
            ImageRequest(urlRequest: urlRequest),
            ImageRequest(id: "in-memory-data", data: { png }),
            ImageRequest(
                id: "in-memory-image",
                image: {
                    ImageContainer(image: Fixtures.solidImage(width: 5, height: 5, color: .init(r: 1, g: 2, b: 3)))
                }),
        ]

        // When
        var widths: [Int] = []
        for request in requests { widths.append(try await pipeline.image(for: request).width) }

        // Then
        #expect(widths == [32, SampleImages.width, 8, 5])
        #expect(literal.url == URL(string: "https://example.com/image.png"))
        #expect(backend.server.requests(for: "/photo.jpg").first?.header("X-App") == "compat")
        #expect(requests[1].urlRequest?.value(forHTTPHeaderField: "X-App") == "compat")
        #expect(requests[2].imageID == "in-memory-data" && requests[2].url == nil)
        #expect(requests[0].imageID == backend.pngURL.absoluteString)
        #expect(requests[0].description.contains("photo.png"))
    }

    @Test func priorityIsOrderedAndMutable() {
        // Given
        var request = ImageRequest(url: URL(string: "https://example.com/a.png"), priority: .low)

        // When
        request.priority = .veryHigh

        // Then
        let all: [ImageRequest.Priority] = [.veryLow, .low, .normal, .high, .veryHigh]
        #expect(all == all.sorted())
        #expect(ImageRequest.Priority.low < .normal)
        #expect(request.priority == .veryHigh)
    }

    @Test func optionsControlTheCaches() async throws {
        // Given an image in the memory cache
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        _ = try await pipeline.image(for: backend.pngURL)

        // When it is requested again with each option
        let cached = try await pipeline.imageTask(with: ImageRequest(url: backend.pngURL)).response
        let reload = ImageRequest(url: backend.pngURL, options: [.reloadIgnoringCachedData])
        let reloaded = try await pipeline.imageTask(with: reload).response
        var noWrites = ImageRequest(url: backend.otherURL)
        noWrites.options = [.disableMemoryCacheWrites, .disableDiskCache, .skipDecompression, .skipDataLoadingQueue]
        _ = try await pipeline.image(for: noWrites)
        let cacheOnly = ImageRequest(url: backend.missingURL, options: .returnCacheDataDontLoad)

        // Then
        #expect(cached.cacheType == .memory)
        #expect(reloaded.cacheType == nil)
        #expect(backend.requestCount("/photo.png") == 2)
        #expect(pipeline.cache[backend.otherURL] == nil)
        do {
            _ = try await pipeline.image(for: cacheOnly)
            Issue.record("expected dataMissingInCache")
        } catch {
            #expect({ if case .dataMissingInCache = error { true } else { false } }())
        }
        #expect(backend.requestCount("/missing.png") == 0)
        let all: ImageRequest.Options = [
            .disableMemoryCacheReads, .disableMemoryCacheWrites, .disableMemoryCache, .disableDiskCacheReads,
            .disableDiskCacheWrites, .disableDiskCache, .returnCacheDataDontLoad, .skipDecompression,
            .skipDataLoadingQueue,
        ]
        #expect(ImageRequest.Options(rawValue: all.rawValue) == all)
    }

    @Test func userInfoKeysCarryAppValues() {
        // Given an app's own key, and the string-literal and initialiser spellings
        let sourceKey: ImageRequest.UserInfoKey = "com.example.app/source"
        let other = ImageRequest.UserInfoKey("com.example.app/other")
        var request = ImageRequest(url: URL(string: "https://example.com/a.png"))

        // When
        request.userInfo[sourceKey] = "feed"
        request.userInfo[other] = 42

        // Then
        #expect(request.userInfo[sourceKey] as? String == "feed")
        #expect(request.userInfo[other] as? Int == 42)
        #expect(sourceKey.rawValue == "com.example.app/source")
    }

    @Test func thumbnailOptionsDecodeAReducedImage() async throws {
        // Given a 64×48 JPEG requested as a 16-pixel thumbnail, and the size/content-mode spelling
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        var request = ImageRequest(url: backend.jpegURL)
        var thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 16)
        thumbnail.createThumbnailFromImageIfAbsent = true
        thumbnail.createThumbnailFromImageAlways = true
        thumbnail.createThumbnailWithTransform = true
        thumbnail.shouldCacheImmediately = true
        request.thumbnail = thumbnail
        let bySize = ImageRequest.ThumbnailOptions(
            size: CGSize(width: 10, height: 10), unit: .pixels, contentMode: .aspectFit)

        // When
        let image = try await pipeline.image(for: request)

        // Then the longer side is 16 pixels
        #expect(max(image.width, image.height) == 16)
        #expect(request.thumbnail == thumbnail && bySize != thumbnail)
        var scaled = ImageRequest(url: backend.pngURL)
        scaled.scale = 2
        #expect(scaled.scale == 2)
    }
}
