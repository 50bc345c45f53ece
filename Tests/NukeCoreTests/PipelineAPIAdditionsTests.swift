import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Delegate hooks, task status, statistics and the other API added for Nuke compatibility.
@Suite struct PipelineAPIAdditionsTests {
    // MARK: ImageTask

    @Test func statusAndDescriptionFollowTheTask() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let task = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("a"), priority: .high))
        #expect(task.status.result == nil)
        #expect(task.description.hasPrefix("ImageTask(id: \(task.taskId), priority: high, progress: 0 / 0"))
        #expect(task.description.hasSuffix("state: running)"))
        #expect(task.id == ObjectIdentifier(task))

        fixture.loader.isSuspended = false
        _ = try await task.image
        let status = task.status
        #expect((try? status.result?.get()) != nil)
        #expect(!status.isCancelled && !task.isCancelled)
        #expect(status.progress == ImageTask.Progress(completed: 20, total: 20))
        #expect(task.currentProgress == status.progress)
        #expect(task.description.hasSuffix("progress: 20 / 20, state: success)"))
    }

    @Test func cancelledTaskReportsItAndThrowsTypedError() async {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        task.cancel()
        #expect(task.isCancelled)
        do {
            _ = try await task.image
            Issue.record("expected cancellation")
        } catch {
            #expect(error.isCancelled)  // `error` is an ImagePipeline.Error: typed throws.
        }
        // Nuke's words for a cancelled task, also once it has finished with `.cancelled`.
        #expect(
            task.description == "ImageTask(id: \(task.taskId), priority: normal, progress: 0 / 0, state: cancelled)")
        #expect(task.state == .cancelled)
    }

    @Test func descriptionOfAFailedTaskNamesTheError() async {
        // Given a request the loader can't serve
        let fixture = PipelineFixture()
        fixture.loader.setError(for: Fixtures.url("a"), URLError(.notConnectedToInternet))
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))

        // When it fails
        _ = try? await task.image

        // Then the state is Nuke's `failure(<error>)`, and cancelling afterwards changes nothing
        guard case let .failure(error)? = task.status.result else {
            Issue.record("expected a failure")
            return
        }
        let expected = "ImageTask(id: \(task.taskId), priority: normal, progress: 0 / 0, state: failure(\(error)))"
        #expect(task.description == expected)
        task.cancel()
        #expect(task.isCancelled)
        #expect(task.description == expected)
    }

    @Test func descriptionOfARequestNamesItsSource() {
        // Given requests of every source
        let url = ImageRequest(url: Fixtures.url("a"), priority: .high)
        let data = ImageRequest(id: "photo-1", data: { Data() })
        let image = ImageRequest(id: "photo-2", image: { throw URLError(.fileDoesNotExist) })
        let noURL = ImageRequest(url: nil)

        // Then each reads as Nuke's: a closure source is `<closure>`, never its id
        let tail = "processors: [], options: \(ImageRequest.Options()), userInfo: [:])"
        #expect(
            url.description == "ImageRequest(resource: \(Fixtures.url("a").absoluteString), priority: high, \(tail)")
        #expect(data.description == "ImageRequest(resource: <closure>, priority: normal, \(tail)")
        #expect(image.description == "ImageRequest(resource: <closure>, priority: normal, \(tail)")
        #expect(noURL.description == "ImageRequest(resource: nil, priority: normal, \(tail)")
        #expect(data.imageID == "photo-1")  // The id still keys the caches.
    }

    @Test func progressSequenceYieldsEveryUpdate() async throws {
        let fixture = PipelineFixture()
        fixture.loader.chunkCount = 2
        fixture.loader.isSuspended = true
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        let progress = task.progress
        fixture.loader.isSuspended = false
        var values: [ImageTask.Progress] = []
        for await value in progress { values.append(value) }
        #expect(values == [.init(completed: 10, total: 20), .init(completed: 20, total: 20)])
    }

    // MARK: Delegate

    @Test func delegateReceivesEveryEventAndCanReplaceCachedData() async throws {
        final class Recorder: ImagePipeline.Delegate {
            let events = LockedBox<[String]>([])

            func imageTask(_ task: ImageTask, didReceiveEvent event: ImageTask.Event, pipeline: ImagePipeline) {
                let name =
                    switch event {
                    case .started: "started"
                    case let .progress(value): "progress \(value.completed)"
                    case .preview: "preview"
                    case .finished: "finished"
                    }
                events.mutate { $0.append(name) }
            }

            func willCache(
                data: Data, image: ImageContainer?, for request: ImageRequest, pipeline: ImagePipeline,
                completion: @escaping (Data?) -> Void
            ) {
                completion(Data("replaced".utf8))
            }
        }
        let cache = MockDataCache()
        let fixture = PipelineFixture {
            $0.dataCache = cache
            $0.httpCachePolicy = .ignoreHeaders  // Nuke\'s semantics: what is stored is fresh
        }
        let recorder = Recorder()
        let pipeline = ImagePipeline(delegate: recorder) { configuration in
            configuration = fixture.pipeline.configuration
        }
        fixture.loader.chunkCount = 2

        _ = try await pipeline.imageTask(with: Fixtures.url("a")).image
        await pipeline.flush()  // The delegate hears `finished` on the pipeline's actor, after the awaiter resumes.

        #expect(recorder.events.value == ["started", "progress 10", "progress 20", "finished"])
        #expect(cache.cachedData(for: Fixtures.url("a").absoluteString) == Data("replaced".utf8))
    }

    @Test func willCacheReturningNilStoresNothing() async throws {
        final class NoStore: ImagePipeline.Delegate {
            func willCache(
                data: Data, image: ImageContainer?, for request: ImageRequest, pipeline: ImagePipeline,
                completion: @escaping (Data?) -> Void
            ) {
                completion(nil)
            }
        }
        let cache = MockDataCache()
        let fixture = PipelineFixture {
            $0.dataCache = cache
            $0.httpCachePolicy = .ignoreHeaders  // Nuke\'s semantics: what is stored is fresh
        }
        let pipeline = ImagePipeline(configuration: fixture.pipeline.configuration, delegate: NoStore())
        _ = try await pipeline.imageTask(with: Fixtures.url("a")).image
        #expect(cache.store.isEmpty)
    }

    @Test func decompressHookRunsForDecodedImages() async throws {
        final class Marker: ImagePipeline.Delegate {
            func decompress(response: ImageResponse, request: ImageRequest, pipeline: ImagePipeline) -> ImageResponse {
                var response = response
                response.container.userInfo["decompressed"] = true
                return response
            }
        }
        let fixture = PipelineFixture()
        let pipeline = ImagePipeline(configuration: fixture.pipeline.configuration, delegate: Marker())
        let response = try await pipeline.imageTask(with: Fixtures.url("a")).response
        #expect(response.container.userInfo["decompressed"] as? Bool == true)

        var configuration = fixture.pipeline.configuration
        configuration.isDecompressionEnabled = false
        configuration.imageCache = nil
        let off = ImagePipeline(configuration: configuration, delegate: Marker())
        #expect(try await off.imageTask(with: Fixtures.url("b")).response.container.userInfo["decompressed"] == nil)
    }

    // MARK: Previews

    @Test func defaultPreviewPolicyFollowsNuke() {
        let progressive = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0, 0, 0xFF, 0xC2, 0x00, 0x0B, 8, 0, 1, 0, 1, 1, 1])
        let baseline = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 8, 0, 1, 0, 1, 1, 1, 0x11, 0])
        #expect(ImagePipeline.PreviewPolicy.default(for: progressive) == .incremental)
        #expect(ImagePipeline.PreviewPolicy.default(for: baseline) == .disabled)
        #expect(ImagePipeline.PreviewPolicy.default(for: Data("GIF89a".utf8)) == .incremental)
        #expect(ImagePipeline.PreviewPolicy.default(for: Data([0x89, 0x50, 0x4E, 0x47])) == .disabled)
    }

    @Test(arguments: [ImagePipeline.PreviewPolicy.disabled, .incremental])
    func previewPolicyDecidesWhetherPartialDataIsDecoded(_ policy: ImagePipeline.PreviewPolicy) async throws {
        // Given a download the test drives, and the delegate's policy
        let factoryCalls = CallCounter()
        let (base, load, _) = Self.progressivePipeline(policy: policy)
        var configuration = base.configuration
        configuration.makeImageDecoder = { _ in
            factoryCalls.increment("decoder")
            return MockImageDecoder()
        }
        let pipeline = ImagePipeline(configuration: configuration, delegate: FixedPreviewPolicy(policy))
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        let transfer = await load.load(0)
        transfer.respond(headers: ["Content-Length": "8"])

        // When partial data arrives
        transfer.send(Data([1, 2, 3, 4]))
        await pipeline.flush()

        // Then a decoder for previews is made only with the incremental policy (the preview stage asks for one
        // synchronously; with `.disabled` it stops before)
        #expect(factoryCalls.count("decoder") == (policy == .incremental ? 1 : 0))
        transfer.send(Data([5, 6, 7, 8]))
        transfer.finish()
        _ = try await task.image
    }

    /// A JPEG prefix whose APP1 Exif segment has a 4-byte "thumbnail" in IFD1, followed by `rest`.
    private static func jpegWithExifThumbnail(rest: [UInt8] = []) -> Data {
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0, 0, 0]  // little endian, IFD0 at 8
        tiff += [0, 0]  // IFD0: no entries
        tiff += [14, 0, 0, 0]  // next IFD at 14
        tiff += [2, 0]  // IFD1: two entries
        tiff += [0x01, 0x02, 4, 0, 1, 0, 0, 0, 44, 0, 0, 0]  // JPEGInterchangeFormat = 44
        tiff += [0x02, 0x02, 4, 0, 1, 0, 0, 0, 4, 0, 0, 0]  // JPEGInterchangeFormatLength = 4
        tiff += [0, 0, 0, 0]  // no next IFD
        tiff += [0xFF, 0xD8, 0xFF, 0xD9]  // the thumbnail
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + rest)
    }

    @Test func thumbnailPolicyFindsTheExifThumbnail() throws {
        let jpeg = Self.jpegWithExifThumbnail()
        #expect(JPEGScan.exifThumbnail(jpeg) == .found(Data([0xFF, 0xD8, 0xFF, 0xD9])))
        #expect(JPEGScan.exifThumbnail(jpeg.prefix(jpeg.count - 3)) == .pending)  // Segment not complete yet.
        #expect(JPEGScan.exifThumbnail(Data(repeating: 0xFF, count: 64)) == .absent)
        let baseline = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 8, 0, 1, 0, 1, 1, 1, 0x11, 0])
        #expect(JPEGScan.exifThumbnail(baseline) == .absent)  // The frame came first: there is none.
    }

    /// A pipeline with progressive decoding, the given preview policy, and a loader the test drives.
    private static func progressivePipeline(
        policy: ImagePipeline.PreviewPolicy
    ) -> (ImagePipeline, ManualDataLoader, PipelineFixture) {
        let fixture = PipelineFixture {
            $0.isProgressiveDecodingEnabled = true
            $0.progressiveDecodingInterval = 0
        }
        let load = ManualDataLoader()
        var configuration = fixture.pipeline.configuration
        configuration.dataLoader = load
        return (ImagePipeline(configuration: configuration, delegate: FixedPreviewPolicy(policy)), load, fixture)
    }

    @Test func thumbnailPolicyShowsTheEmbeddedThumbnailOnce() async throws {
        // Given the thumbnail policy and a JPEG whose EXIF thumbnail arrives in the first chunk
        let (pipeline, load, fixture) = Self.progressivePipeline(policy: .thumbnail)
        let head = Self.jpegWithExifThumbnail(rest: [0xFF, 0xC0, 0x00, 0x0B, 8, 0, 1, 0, 1, 1, 1, 0x11, 0])
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        var events = task.events.makeAsyncIterator()
        let transfer = await load.load(0)
        transfer.respond(headers: ["Content-Length": "\(head.count + 8)"])

        // When the first chunk arrives, then more
        transfer.send(head)
        var preview: ImageResponse?
        while let event = await events.next() {
            if case let .preview(response) = event {
                preview = response
                break
            }
        }
        transfer.send(Data([1, 2, 3, 4]))
        transfer.send(Data([5, 6, 7, 8]))
        transfer.finish()
        var laterPreviews = 0
        while let event = await events.next() {
            if case .preview = event { laterPreviews += 1 }
        }

        // Then the one preview is the embedded thumbnail (the mock decoder's pixel is its first four bytes), and
        // nothing decoded the partial image itself
        let pixel = try #require(preview?.image.pixel(x: 0, y: 0))
        #expect(pixel == PlatformImage.RGBA(r: 0xFF, g: 0xD8, b: 0xFF, a: 0xD9))
        #expect(laterPreviews == 0)
        #expect(fixture.decodes.count("MockImageDecoder.partial") == 0)
        _ = try await task.image
    }

    @Test func previewsAreStoredInMemoryCacheAndReplacedByTheFinalImage() async throws {
        let (pipeline, load, _) = Self.progressivePipeline(policy: .incremental)
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        var events = task.events.makeAsyncIterator()
        let transfer = await load.load(0)
        transfer.respond(headers: ["Content-Length": "8"])
        transfer.send(Data([1, 2, 3, 4]))
        while let event = await events.next() {
            if case .preview = event { break }
        }
        await pipeline.flush()
        #expect(pipeline.cache[Fixtures.url("a")]?.isPreview == true)

        transfer.send(Data([5, 6, 7, 8]))
        transfer.finish()
        _ = try await task.image
        #expect(pipeline.cache[Fixtures.url("a")]?.isPreview == false)

        // And a reload's previews never replace the final image
        let reload = pipeline.imageTask(
            with: ImageRequest(url: Fixtures.url("a"), options: [.reloadIgnoringCachedData]))
        var reloadEvents = reload.events.makeAsyncIterator()
        let second = await load.load(1)
        second.respond(headers: ["Content-Length": "8"])
        second.send(Data([9, 9, 9, 9]))
        while let event = await reloadEvents.next() {
            if case .preview = event { break }
        }
        await pipeline.flush()
        #expect(pipeline.cache[Fixtures.url("a")]?.isPreview == false)
        reload.cancel()
    }

    // MARK: Decoding and sources

    @Test func asyncDecoderIsAwaited() async throws {
        struct SlowDecoder: AsyncImageDecoding {
            func decode(_ data: Data) async throws -> ImageContainer {
                await Task.yield()
                return ImageContainer(image: Fixtures.solidImage(width: 3, height: 2, color: .init(r: 1, g: 2, b: 3)))
            }
        }
        let fixture = PipelineFixture { $0.makeImageDecoder = { _ in SlowDecoder() } }
        let image = try await fixture.pipeline.image(for: Fixtures.url("a"))
        #expect(image.width == 3 && image.height == 2)
        #expect(throws: ImageDecodingError.self) { try SlowDecoder().decode(Data([1])) as ImageContainer }
    }

    @Test func imageClosureRequestsGoThroughProcessorsAndCaches() async throws {
        let fixture = PipelineFixture()
        let calls = CallCounter()
        let request = ImageRequest(
            id: "made",
            image: {
                calls.increment("image")
                return ImageContainer(image: Fixtures.solidImage(width: 4, height: 4, color: .init(r: 9, g: 9, b: 9)))
            }, processors: [fixture.processor("p")])
        let response = try await fixture.pipeline.imageTask(with: request).response
        #expect(response.image.width == 4)
        #expect(try await fixture.pipeline.imageTask(with: request).response.cacheType == .memory)
        #expect(calls.count("image") == 1)
        #expect(fixture.loader.createdTaskCount == 0)
        do {
            _ = try await fixture.pipeline.data(for: request)
            Issue.record("expected imageRequestMissing")
        } catch {
            #expect(error.caseName == "imageRequestMissing")
        }
    }

    @Test func localResourcesGoToTheLoaderWhenSupportIsOff() async throws {
        let fixture = PipelineFixture { $0.isLocalResourcesSupportEnabled = false }
        let url = try #require(URL(string: "data:application/octet-stream;base64,AQID"))
        _ = try await fixture.pipeline.image(for: url)
        #expect(fixture.loader.createdTaskCount == 1)
    }

    @Test func imageIDIsSettable() {
        var request = ImageRequest(url: Fixtures.url("a?token=1"))
        request.imageID = Fixtures.url("a").absoluteString
        #expect(request.imageID == Fixtures.url("a").absoluteString)
        #expect(ImageCacheKey(request: request) == ImageCacheKey(request: ImageRequest(url: Fixtures.url("a"))))
        request.imageID = nil
        #expect(request.imageID == Fixtures.url("a?token=1").absoluteString)
    }

    // MARK: Statistics

    @Test func statisticsCountSharedWork() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let first = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("a")))
        let second = fixture.pipeline.imageTask(
            with: ImageRequest(url: Fixtures.url("a"), processors: [fixture.processor("p")]))
        await fixture.loader.waitForLoads(count: 1)
        fixture.loader.isSuspended = false
        _ = try await (first.image, second.image)
        _ = try await fixture.pipeline.image(for: Fixtures.url("a"))  // A memory hit.

        let statistics = fixture.pipeline.statistics
        #expect(statistics.dataLoadsStarted == 1)
        #expect(statistics.bytesLoaded == 20)
        #expect(statistics.decodes == 1)
        #expect(statistics.processes == 1)
        #expect(statistics.coalescedJoins == 1)  // The processed request joined the unprocessed one's task.
        #expect(statistics.memoryCacheHits == 1)
        #expect(statistics.cancellations == 0)

        fixture.pipeline.resetStatistics()
        #expect(fixture.pipeline.statistics == ImagePipeline.Statistics())
    }

    // MARK: Errors

    @Test func errorsUseNukesWordingAndExposeTheLoadingError() {
        struct Boom: Error {}
        let error = ImagePipeline.Error.dataLoadingFailed(error: Boom())
        #expect(error.dataLoadingError is Boom)
        #expect(ImagePipeline.Error.dataIsEmpty.dataLoadingError == nil)
        #expect(error.description == "Failed to load image data. Underlying error: Boom().")
        #expect(ImagePipeline.Error.cancelled.description == "Image task was cancelled")
        #expect(
            ImagePipeline.Error.dataMissingInCache.description
                == "Failed to load data from cache and download is disabled.")
    }
}
