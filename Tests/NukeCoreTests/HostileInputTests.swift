import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Servers, URLs and files that try to break the pipeline.
@Suite struct HostileInputTests {
    private func makePipeline(
        _ loader: ManualDataLoader, delegate: (any ImagePipeline.Delegate)? = nil
    )
        -> ImagePipeline
    {
        var configuration = ImagePipeline.Configuration(dataLoader: loader, imageCache: nil)
        configuration.isRateLimiterEnabled = false
        configuration.makeImageDecoder = { _ in MockImageDecoder() }
        return ImagePipeline(configuration: configuration, delegate: delegate)
    }

    @Test(arguments: ["100000000000", "9223372036854775807"])
    func absurdContentLengthDoesNotAllocate(length: String) async throws {
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let task = pipeline.imageTask(with: Fixtures.url("huge"))
        let load = await loader.load(0)
        load.respond(headers: ["Content-Length": length])
        load.send(Data([1, 2, 3]))
        load.finish()
        #expect(try await task.image.pixel(x: 0, y: 0) == .init(r: 1, g: 2, b: 3, a: 0))
    }

    @Test func progressTotalIsZeroWhenTheLengthIsUnknown() async throws {
        let loader = ManualDataLoader()
        let task = makePipeline(loader).imageTask(with: Fixtures.url("a"))
        let events = task.events
        let load = await loader.load(0)
        load.respond()
        load.send(Data([1, 2, 3, 4]))
        load.send(Data([5, 6, 7, 8]))
        load.finish()
        var progress: [ImageTask.Progress] = []
        for await event in events {
            if case let .progress(value) = event { progress.append(value) }
        }
        #expect(progress == [.init(completed: 4, total: 0), .init(completed: 8, total: 0)])
        #expect(progress.map(\.fraction) == [0, 0])
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellationReachesTheLoaderWithACustomDelegate() async throws {
        final class PassThrough: ImagePipeline.Delegate {}
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader, delegate: PassThrough())
        for index in 0..<100 {
            let task = pipeline.imageTask(with: Fixtures.url("r\(index)"))
            let load = await loader.load(index)
            task.cancel()
            await load.waitForCancellation()  // Hangs (and fails on the time limit) if a cancel is lost.
        }
    }

    @Test func interruptedResumeKeepsAllItsBytes() async throws {
        struct Interrupted: Error {}
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let first = pipeline.imageTask(with: Fixtures.url("a"))
        let load0 = await loader.load(0)
        load0.respond(headers: ["Accept-Ranges": "bytes", "ETag": "\"v1\"", "Content-Length": "8"])
        load0.send(Data([1, 2, 3, 4]))
        load0.finish(Interrupted())
        _ = await first.result

        // The resumed transfer (206, no validator of its own) is interrupted after one more byte
        let second = pipeline.imageTask(with: Fixtures.url("a"))
        let load1 = await loader.load(1)
        load1.respond(status: 206, headers: ["Content-Length": "4", "Content-Range": "bytes 4-7/8"])
        load1.send(Data([5]))
        load1.finish(Interrupted())
        _ = await second.result

        // The third attempt resumes after all five bytes, with the original validator
        _ = pipeline.imageTask(with: Fixtures.url("a"))
        let load2 = await loader.load(2)
        #expect(load2.request.value(forHTTPHeaderField: "Range") == "bytes=5-")
        #expect(load2.request.value(forHTTPHeaderField: "If-Range") == "\"v1\"")
    }

    @Test func a206ForTheWrongRangeStartsOver() async throws {
        struct Interrupted: Error {}
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let first = pipeline.imageTask(with: Fixtures.url("a"))
        let load0 = await loader.load(0)
        load0.respond(headers: ["Accept-Ranges": "bytes", "ETag": "\"v1\"", "Content-Length": "8"])
        load0.send(Data([1, 2, 3, 4]))
        load0.finish(Interrupted())
        _ = await first.result

        let second = pipeline.imageTask(with: Fixtures.url("a"))
        let load1 = await loader.load(1)
        load1.respond(status: 206, headers: ["Content-Length": "8", "Content-Range": "bytes 0-7/8"])
        load1.send(Data([9, 9, 9, 9, 9, 9, 9, 9]))
        load1.finish()
        #expect(try await second.image.pixel(x: 0, y: 0) == .init(r: 9, g: 9, b: 9, a: 9))
    }

    @Test func weakETagIsNotUsedToResume() async throws {
        struct Interrupted: Error {}
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let first = pipeline.imageTask(with: Fixtures.url("a"))
        let load0 = await loader.load(0)
        load0.respond(headers: ["Accept-Ranges": "bytes", "ETag": "W/\"v1\"", "Content-Length": "8"])
        load0.send(Data([1, 2, 3, 4]))
        load0.finish(Interrupted())
        _ = await first.result
        _ = pipeline.imageTask(with: Fixtures.url("a"))
        #expect(await loader.load(1).request.value(forHTTPHeaderField: "Range") == nil)
    }

    @Test func releasedPipelineKeepsItsDelegateForRunningTasks() async throws {
        final class KeyDelegate: ImagePipeline.Delegate {
            func cacheKey(for request: ImageRequest, pipeline: ImagePipeline) -> String? { "custom-key" }
        }
        let loader = MockDataLoader()
        let dataCache = MockDataCache()
        func start() -> ImageTask {
            var configuration = ImagePipeline.Configuration(dataLoader: loader, imageCache: nil)
            configuration.dataCache = dataCache
            configuration.makeImageDecoder = { _ in MockImageDecoder() }
            return ImagePipeline(configuration: configuration, delegate: KeyDelegate()).imageTask(
                with: Fixtures.url("a"))
        }
        _ = try await start().response
        #expect(Array(dataCache.store.keys) == ["custom-key"])
    }

    @Test func urlAndURLRequestFormsShareTheDownload() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let task1 = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("a")))
        let task2 = fixture.pipeline.imageTask(with: ImageRequest(urlRequest: URLRequest(url: Fixtures.url("a"))))
        await fixture.loader.waitForLoads(count: 1)
        await fixture.pipeline.flush()
        fixture.loader.isSuspended = false
        _ = try await task1.response
        _ = try await task2.response
        #expect(fixture.loader.createdTaskCount == 1)
    }

    @Test func previewAttemptsAreThrottledEvenWhenTheDecoderYieldsNothing() async throws {
        let loader = ManualDataLoader()
        let counter = CallCounter()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.isProgressiveDecodingEnabled = true
            $0.progressiveDecodingInterval = 3600
            $0.makeImageDecoder = { _ in MockImageDecoder.failing(counter: counter) }
        }
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        let load = await loader.load(0)
        load.respond(headers: ["Content-Length": "100"])
        for _ in 0..<10 {
            load.send(Data(count: 4))
            await pipeline.flush()
        }
        load.finish()
        _ = await task.result
        #expect(counter.count("MockImageDecoder.partial") <= 1)
    }

    @Test func dataURLWithPercentEncodedBinary() throws {
        let url = try #require(URL(string: "data:application/octet-stream,%89PNG%0D%0A%1A%0A"))
        let (data, mimeType) = try LocalDataLoader.decodeDataURL(url)
        #expect(data == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(mimeType == "application/octet-stream")
        #expect(throws: LocalDataLoader.Error.self) {
            try LocalDataLoader.decodeDataURL(URL(string: "data:;base64,@@@@")!)
        }
    }

    @Test(arguments: ["/dev/zero", "/tmp"])
    func nonRegularFilesAreRejected(path: String) async throws {
        let pipeline = ImagePipeline {
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in MockImageDecoder() }
        }
        let error = await pipeline.imageTask(with: URL(fileURLWithPath: path)).result.error
        #expect((error?.underlyingError as? LocalDataLoader.Error) == .notAFile(path))
    }
}
