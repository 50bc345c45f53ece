import Foundation
import Nuke
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A minimal delegate other suites use to see that a pipeline was created with it.
final class CountingDelegate: ImagePipeline.Delegate {
    private let created = LockedValueBox(0)
    var createdCount: Int { created.snapshot }
    func imageTaskCreated(_ task: ImageTask, pipeline: ImagePipeline) { created.withLock { $0 += 1 } }
}

/// An app's delegate implementing every `ImagePipeline.Delegate` method with Nuke's signatures.
final class AppPipelineDelegate: ImagePipeline.Delegate {
    let loader: CountingDataLoader
    let memoryCache = DictionaryImageCache()
    let diskCache = InMemoryDataCache()
    private let calls = LockedValueBox<[String: Int]>([:])
    private let registry: ImageDecoderRegistry

    init(loader: any DataLoading = CurlDataLoader()) {
        self.loader = CountingDataLoader(loader)
        registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
    }

    func count(_ method: String) -> Int { calls.snapshot[method] ?? 0 }
    private func record(_ method: String = #function) { calls.withLock { $0[method, default: 0] += 1 } }

    func imageDecoder(for context: ImageDecodingContext, pipeline: ImagePipeline) -> (any ImageDecoding)? {
        record()
        return registry.decoder(for: context)
    }

    func imageEncoder(for context: ImageEncodingContext, pipeline: ImagePipeline) -> any ImageEncoding {
        record()
        return ImageEncoders.PNG()
    }

    func previewPolicy(for context: ImageDecodingContext, pipeline: ImagePipeline) -> ImagePipeline.PreviewPolicy {
        record()
        return .incremental
    }

    func dataLoader(for request: ImageRequest, pipeline: ImagePipeline) -> any DataLoading {
        record()
        return loader
    }

    func willLoadData(
        for request: ImageRequest, urlRequest: URLRequest, pipeline: ImagePipeline
    ) async throws
        -> URLRequest
    {
        record()
        var urlRequest = urlRequest
        urlRequest.setValue("Bearer app-token", forHTTPHeaderField: "Authorization")
        return urlRequest
    }

    func imageCache(for request: ImageRequest, pipeline: ImagePipeline) -> (any ImageCaching)? {
        record()
        return memoryCache
    }

    func dataCache(for request: ImageRequest, pipeline: ImagePipeline) -> (any DataCaching)? {
        record()
        return diskCache
    }

    func cacheKey(for request: ImageRequest, pipeline: ImagePipeline) -> String? {
        record()
        return request.url.map { "app:" + $0.lastPathComponent }
    }

    func willCache(
        data: Data, image: ImageContainer?, for request: ImageRequest, pipeline: ImagePipeline,
        completion: @escaping (Data?) -> Void
    ) {
        record()
        completion(data)
    }

    func shouldDecompress(response: ImageResponse, for request: ImageRequest, pipeline: ImagePipeline) -> Bool {
        record()
        return true
    }

    func decompress(response: ImageResponse, request: ImageRequest, pipeline: ImagePipeline) -> ImageResponse {
        record()
        return response
    }

    func imageTaskCreated(_ task: ImageTask, pipeline: ImagePipeline) { record() }

    func imageTaskDidStart(_ task: ImageTask, pipeline: ImagePipeline) { record() }

    func imageTask(_ task: ImageTask, didReceiveEvent event: ImageTask.Event, pipeline: ImagePipeline) {
        if case .finished = event { record("finished") }
        record()
    }
}

@Suite struct DelegateTests {
    @Test func everyDelegateMethodIsCalled() async throws {
        // Given a pipeline that stores processed images as encoded data, with the app's delegate
        let backend = try AppBackend()
        let delegate = AppPipelineDelegate()
        let pipeline = ImagePipeline(delegate: delegate) {
            $0.dataCachePolicy = .storeAll
            $0.isProgressiveDecodingEnabled = true
        }
        let request = ImageRequest(url: backend.pngURL, processors: [.resize(width: 32)])

        // When
        let image = try await pipeline.image(for: request)
        let again = try await pipeline.imageTask(with: request).response

        // Then every hook ran, and the delegate's caches, loader and key were used
        #expect(image.width == 32)
        #expect(again.cacheType == .memory)
        #expect(delegate.loader.loadCount == 1)
        #expect(delegate.memoryCache.count == 1)
        #expect(delegate.diskCache.keys.contains("app:photo.png"))
        let methods = [
            "imageDecoder(for:pipeline:)", "dataLoader(for:pipeline:)", "imageCache(for:pipeline:)",
            "dataCache(for:pipeline:)", "cacheKey(for:pipeline:)", "willCache(data:image:for:pipeline:completion:)",
            "shouldDecompress(response:for:pipeline:)", "decompress(response:request:pipeline:)",
            "imageTaskCreated(_:pipeline:)", "imageTaskDidStart(_:pipeline:)",
            "imageTask(_:didReceiveEvent:pipeline:)", "finished",
        ]
        for method in methods { #expect(delegate.count(method) > 0, "\(method) was not called") }
        #expect(delegate.count("imageEncoder(for:pipeline:)") > 0)
        #expect(
            backend.server.requests(for: "/photo.png").first?.header("Authorization") == "Bearer app-token",
            "willLoadData(for:urlRequest:pipeline:)'s request was not sent")
    }

    @Test func previewPolicyIsAskedForPartialData() async throws {
        // Given a JPEG that arrives in slow chunks, and progressive decoding
        let jpeg = try SampleImages.jpeg(width: 256, height: 256)
        let half = jpeg.count / 2
        let server = try LoopbackHTTPServer(routes: [
            "/slow.jpg": .chunked([jpeg.prefix(half), jpeg.dropFirst(half)], delay: .milliseconds(100))
        ])
        let delegate = AppPipelineDelegate(loader: CurlDataLoader())
        let pipeline = ImagePipeline(delegate: delegate) { $0.isProgressiveDecodingEnabled = true }

        // When
        let image = try await pipeline.image(for: server.url("/slow.jpg"))

        // Then
        #expect(image.width == 256)
        // A chunked response has no Content-Length: partial data still reaches the preview stage.
        #expect(delegate.count("previewPolicy(for:pipeline:)") > 0)
    }
}
