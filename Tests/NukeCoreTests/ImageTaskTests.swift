import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

@Suite struct ImageTaskTests {
    private func collect(_ events: AsyncStream<ImageTask.Event>) async -> [String] {
        var names: [String] = []
        for await event in events {
            switch event {
            case .started: names.append("started")
            case let .progress(progress): names.append("progress \(progress)")
            case .preview: names.append("preview")
            case let .finished(.success(response)): names.append("finished \(String(describing: response.cacheType))")
            case let .finished(.failure(error)): names.append("failed \(error.caseName)")
            }
        }
        return names
    }

    @Test func eventsEndWithExactlyOneFinishedEvent() async {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        let events = task.events
        await fixture.loader.waitForLoads(count: 1)
        fixture.loader.isSuspended = false
        #expect(await collect(events) == ["progress 20/20", "finished nil"])
    }

    @Test func eventsReplayTheResultAfterFinish() async throws {
        let fixture = PipelineFixture()
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        _ = try await task.response
        #expect(await collect(task.events) == ["finished nil"])
        #expect(await collect(task.events) == ["finished nil"])
    }

    @Test func memoryCacheHitHasOneTerminalEventAndNoLoad() async throws {
        // Given an image in the memory cache
        let fixture = PipelineFixture()
        let request = ImageRequest(url: Fixtures.url("a"))
        fixture.pipeline.cache[request] = ImageContainer(
            image: Fixtures.solidImage(width: 2, height: 2, color: .init(r: 1, g: 2, b: 3)))

        // When
        let task = fixture.pipeline.imageTask(with: request)
        let events = await collect(task.events)

        // Then
        #expect(events == ["finished Optional(NukeCore.ImageResponse.CacheType.memory)"])
        #expect(try await task.response.cacheType == .memory)
        #expect(try await task.image.width == 2)
        #expect(fixture.loader.createdTaskCount == 0)
    }

    @Test func responseCanBeAwaitedRepeatedly() async throws {
        let fixture = PipelineFixture()
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        async let first = task.response
        async let second = task.response
        let (response1, response2) = try await (first, second)
        #expect(response1.image == response2.image)
        #expect(try await task.response.image == response1.image)
    }

    @Test func cancelIsIdempotentAndFinishesOnce() async {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        let events = task.events
        await fixture.loader.waitForLoads(count: 1)
        task.cancel()
        task.cancel()
        #expect(await collect(events) == ["failed cancelled"])
        #expect(await task.result.error?.caseName == "cancelled")
        #expect(task.state == .cancelled)
        await fixture.loader.waitForCancellations(count: 1)
        #expect(fixture.loader.cancelledTaskCount == 1)
    }

    @Test func cancelBeforeStartNeverLoads() async {
        let fixture = PipelineFixture()
        // The graph is busy (as under load), so the start waits in its mailbox behind this job.
        let busy = DispatchSemaphore(value: 0)
        fixture.pipeline.core.mailbox.postLater { busy.wait() }
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        task.cancel()
        busy.signal()
        #expect(await task.result.error?.caseName == "cancelled")
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
        #expect(fixture.loader.createdTaskCount == 0)
    }

    @Test func cancellingTheAwaitingSwiftTaskCancelsTheImageTask() async {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let imageTask = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        let waiter = Task { try await imageTask.image }
        await fixture.loader.waitForLoads(count: 1)
        waiter.cancel()
        #expect(await (try? waiter.value) == nil)
        await fixture.loader.waitForCancellations(count: 1)
        #expect(imageTask.state == .cancelled)
    }

    @Test func responseCarriesTheTaskRequest() async throws {
        // Coalesced tasks with different priorities each get their own request back
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let task1 = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("a"), priority: .low))
        let task2 = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("a"), priority: .high))
        await fixture.loader.waitForLoads(count: 1)
        fixture.loader.isSuspended = false
        #expect(try await task1.response.request.priority == .low)
        #expect(try await task2.response.request.priority == .high)
    }

    @Test func closureAPICallsBackOnTheConfiguredQueue() async throws {
        let queue = DispatchQueue(label: "test.callbacks")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let fixture = PipelineFixture { $0.callbackQueue = queue }
        fixture.loader.chunkCount = 2
        let log = LockedBox<[String]>([])
        let gate = Gate()
        fixture.pipeline.loadImage(
            with: ImageRequest(url: Fixtures.url("a")),
            progress: { _, completed, total in
                log.mutate { $0.append("progress \(completed)/\(total) \(DispatchQueue.getSpecific(key: key) ?? 0)") }
            },
            completion: { result in
                log.mutate {
                    $0.append("completion \((try? result.get()) != nil) \(DispatchQueue.getSpecific(key: key) ?? 0)")
                }
                gate.open()
            })
        await gate.wait()
        #expect(log.value == ["progress 10/20 42", "progress 20/20 42", "completion true 42"])
    }

    @Test func closureAPIReportsCancellationOnce() async {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let results = LockedBox<[String]>([])
        let gate = Gate()
        let task = fixture.pipeline.loadImage(with: Fixtures.url("a")) { result in
            results.mutate { $0.append(result.error?.caseName ?? "success") }
            gate.open()
        }
        task.cancel()
        task.cancel()
        await gate.wait()
        await fixture.pipeline.flush()
        fixture.loader.isSuspended = false
        await fixture.pipeline.flush()
        #expect(results.value == ["cancelled"])
    }

    @Test func invalidateCancelsRunningTasksAndRejectsNewOnes() async {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let task = fixture.pipeline.imageTask(with: Fixtures.url("a"))
        await fixture.loader.waitForLoads(count: 1)

        fixture.pipeline.invalidate()

        #expect(await task.result.error?.caseName == "cancelled")
        let late = fixture.pipeline.imageTask(with: Fixtures.url("b"))
        #expect(await late.result.error?.caseName == "pipelineInvalidated")
        await fixture.loader.waitForCancellations(count: 1)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func missingURLFails() async {
        let fixture = PipelineFixture()
        let task = fixture.pipeline.imageTask(with: ImageRequest(url: nil))
        let error = await task.result.error
        #expect(error?.caseName == "imageRequestMissing")
        #expect(error?.description == "Load image method was called with no image request or no URL.")
    }

    @Test func decoderNotRegisteredNamesTheFormat() async throws {
        let fixture = PipelineFixture { $0.makeImageDecoder = { _ in nil } }
        let url = Fixtures.url("a.png")
        fixture.loader.setResponse(for: url, data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]))
        let error = await fixture.pipeline.imageTask(with: url).result.error
        #expect(error?.caseName == "decoderNotRegistered")
        #expect(error?.description.contains("public.png") == true)
    }

    @Test func decodingAndProcessingErrorsAreTyped() async throws {
        let failingDecoder = PipelineFixture { $0.makeImageDecoder = { _ in MockImageDecoder.failing() } }
        let decodingError = await failingDecoder.pipeline.imageTask(with: Fixtures.url("a")).result.error
        #expect(decodingError?.caseName == "decodingFailed")
        #expect(decodingError?.underlyingError as? MockImageDecoder.Error == .scriptedFailure)

        let fixture = PipelineFixture()
        let request = ImageRequest(url: Fixtures.url("a"), processors: [MockFailingProcessor(id: "boom")])
        let processingError = await fixture.pipeline.imageTask(with: request).result.error
        #expect(processingError?.caseName == "processingFailed")
        #expect(processingError?.description.contains("boom") == true)
    }

    @Test func maximumResponseDataSizeIsEnforced() async throws {
        let fixture = PipelineFixture { $0.maximumResponseDataSize = 10 }
        let error = await fixture.pipeline.imageTask(with: Fixtures.url("a")).result.error
        #expect(error?.caseName == "dataDownloadExceededMaximumSize")
    }

    @Test func closureDataSourceIsLoadedOnceAndCoalesced() async throws {
        let fixture = PipelineFixture()
        let calls = CallCounter()
        let gate = Gate()
        let request = ImageRequest(
            id: "custom",
            data: {
                calls.increment()
                await gate.wait()
                return Data([9, 9, 9, 255])
            })
        let task1 = fixture.pipeline.imageTask(with: request)
        let task2 = fixture.pipeline.imageTask(with: request)
        await fixture.pipeline.flush()
        gate.open()
        #expect(try await task1.image.pixel(x: 0, y: 0) == .init(r: 9, g: 9, b: 9, a: 255))
        _ = try await task2.image
        #expect(calls.total == 1)
        #expect(fixture.loader.createdTaskCount == 0)
    }
}
