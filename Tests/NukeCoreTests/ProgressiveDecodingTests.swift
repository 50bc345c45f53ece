import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A decoder whose partial decodes wait until the test lets them finish.
private struct BlockingPartialDecoder: ImageDecoding {
    let semaphore: DispatchSemaphore
    let counter: CallCounter

    func decode(_ data: Data) throws -> ImageContainer {
        try MockImageDecoder().decode(data)
    }

    func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
        counter.increment("partial")
        semaphore.wait()
        return MockImageDecoder().decodePartiallyDownloadedData(data)
    }
}

@Suite struct ProgressiveDecodingTests {
    struct Fixture {
        let loader = ManualDataLoader()
        let decodes = CallCounter()
        let pipeline: ImagePipeline

        init(interval: Double = 0, isEnabled: Bool = true, decoder: (any ImageDecoding)? = nil) {
            let loader = self.loader
            let decodes = self.decodes
            pipeline = ImagePipeline(delegate: FixedPreviewPolicy(.incremental)) {
                $0.dataLoader = loader
                $0.imageCache = ImageCache()
                $0.isProgressiveDecodingEnabled = isEnabled
                $0.progressiveDecodingInterval = interval
                $0.makeImageDecoder = { _ in decoder ?? MockImageDecoder(counter: decodes) }
            }
        }
    }

    /// Reads events until the first one `match` accepts; returns what was read.
    private func read(
        _ iterator: inout AsyncStream<ImageTask.Event>.Iterator,
        until match: (ImageTask.Event) -> Bool
    ) async -> [String] {
        var names: [String] = []
        while let event = await iterator.next() {
            names.append(Self.name(event))
            if match(event) { break }
        }
        return names
    }

    private static func name(_ event: ImageTask.Event) -> String {
        switch event {
        case .started: "started"
        case let .progress(progress): "progress \(progress)"
        case let .preview(response): "preview \(response.isPreview)"
        case let .finished(result): "finished \((try? result.get())?.isPreview == false)"
        }
    }

    private static func isPreview(_ event: ImageTask.Event) -> Bool {
        if case .preview = event { return true }
        return false
    }

    private static func isProgress(_ completed: Int64) -> (ImageTask.Event) -> Bool {
        { event in
            if case let .progress(progress) = event { return progress.completed == completed }
            return false
        }
    }

    @Test func eachChunkYieldsAPreviewAndTheFinalImageReplacesThem() async throws {
        let fixture = Fixture()
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        var events = task.events.makeAsyncIterator()
        let load = await fixture.loader.load(0)
        load.respond(headers: ["Content-Length": "12"])

        load.send(Data([1, 2, 3, 4]))
        var names = await read(&events, until: Self.isPreview)
        load.send(Data([5, 6, 7, 8]))
        names += await read(&events, until: Self.isPreview)
        load.send(Data([9, 10, 11, 12]))
        load.finish()
        names += await read(&events) { _ in false }

        #expect(
            names == [
                "progress 4/12", "preview true", "progress 8/12", "preview true", "progress 12/12", "finished true",
            ])
        #expect(fixture.decodes.count("MockImageDecoder.partial") == 2)
        #expect(try await task.response.isPreview == false)
        #expect(fixture.pipeline.cache[ImageRequest(url: Fixtures.url("a"))]?.isPreview == false)
    }

    @Test func previewsAreThrottled() async throws {
        let fixture = Fixture(interval: 3600)
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        var events = task.events.makeAsyncIterator()
        let load = await fixture.loader.load(0)
        load.respond(headers: ["Content-Length": "12"])
        load.send(Data([1, 2, 3, 4]))
        _ = await read(&events, until: Self.isPreview)

        // When another chunk arrives within the interval
        load.send(Data([5, 6, 7, 8]))
        _ = await read(&events, until: Self.isProgress(8))
        await fixture.pipeline.flush()

        // Then no decode was started for it
        let queue = fixture.pipeline.configuration.imageDecodingQueue
        #expect(queue.pendingCount == 0 && queue.runningCount == 0)
        #expect(fixture.decodes.count("MockImageDecoder.partial") == 1)
        load.send(Data([9, 10, 11, 12]))
        load.finish()
        _ = try await task.response
    }

    @Test func chunksArrivingDuringAPreviewDecodeAreDropped() async throws {
        // Given a preview decode that is still running
        let semaphore = DispatchSemaphore(value: 0)
        let counter = CallCounter()
        let fixture = Fixture(decoder: BlockingPartialDecoder(semaphore: semaphore, counter: counter))
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        var events = task.events.makeAsyncIterator()
        let load = await fixture.loader.load(0)
        load.respond(headers: ["Content-Length": "16"])
        load.send(Data([1, 2, 3, 4]))

        // When more chunks arrive
        load.send(Data([5, 6, 7, 8]))
        load.send(Data([9, 10, 11, 12]))
        var names = await read(&events, until: Self.isProgress(12))
        semaphore.signal()
        names += await read(&events, until: Self.isPreview)

        // Then they didn't queue more preview decodes behind it
        #expect(counter.count("partial") == 1)
        #expect(names.filter { $0.hasPrefix("preview") }.count == 1)
        load.send(Data([13, 14, 15, 16]))
        load.finish()
        _ = try await task.response
        #expect(counter.count("partial") == 1)
    }

    @Test func previewsFlowThroughProcessors() async throws {
        let fixture = Fixture()
        let processed = CallCounter()
        let request = ImageRequest(
            url: Fixtures.url("a"), processors: [MockImageProcessor(id: "p1", counter: processed)])
        let task = fixture.pipeline.imageTask(with: request)
        var events = task.events.makeAsyncIterator()
        let load = await fixture.loader.load(0)
        load.respond(headers: ["Content-Length": "8"])
        load.send(Data([1, 2, 3, 4]))
        var preview: ImageResponse?
        while let event = await events.next() {
            if case let .preview(response) = event {
                preview = response
                break
            }
        }
        #expect(preview?.isPreview == true)
        #expect(preview?.container.userInfo[MockImageProcessor.processorIDsKey] as? [String] == ["p1"])
        load.send(Data([5, 6, 7, 8]))
        load.finish()
        let final = try await task.response
        #expect(final.isPreview == false)
        #expect(processed.count("p1") == 2)
    }

    @Test func disabledMeansNoPreviews() async throws {
        let fixture = Fixture(isEnabled: false)
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        let events = task.events
        let load = await fixture.loader.load(0)
        load.respond(headers: ["Content-Length": "8"])
        load.send(Data([1, 2, 3, 4]))
        load.send(Data([5, 6, 7, 8]))
        load.finish()
        var names: [String] = []
        for await event in events { names.append(Self.name(event)) }
        #expect(names == ["progress 4/8", "progress 8/8", "finished true"])
        #expect(fixture.decodes.count("MockImageDecoder.partial") == 0)
    }
}
