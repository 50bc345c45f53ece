import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

@Suite struct CoalescingTests {
    @Test func equivalentOverlappingRequestsShareOneLoad() async throws {
        // Given two requests for the same URL while the first is still loading
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        let task1 = fixture.pipeline.imageTask(with: url)
        let task2 = fixture.pipeline.imageTask(with: url)
        await fixture.loader.waitForLoads(count: 1)
        await fixture.pipeline.flush()

        // When the load finishes
        fixture.loader.isSuspended = false
        _ = try await task1.response
        _ = try await task2.response

        // Then one load and one decode served both
        #expect(fixture.loader.createdTaskCount == 1)
        #expect(fixture.decodes.total == 1)
    }

    @Test func sameURLDifferentProcessorsShareLoadAndDecode() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        let task1 = fixture.pipeline.imageTask(with: ImageRequest(url: url, processors: [fixture.processor("p1")]))
        let task2 = fixture.pipeline.imageTask(with: ImageRequest(url: url, processors: [fixture.processor("p2")]))
        await fixture.loader.waitForLoads(count: 1)
        await fixture.pipeline.flush()
        fixture.loader.isSuspended = false

        #expect(try await task1.processorIDs == ["p1"])
        #expect(try await task2.processorIDs == ["p2"])
        #expect(fixture.loader.createdTaskCount == 1)
        #expect(fixture.decodes.total == 1)
    }

    @Test func processorPrefixIsAppliedOnce() async throws {
        // Given [p1] and [p1, p2] for the same URL
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        let task1 = fixture.pipeline.imageTask(with: ImageRequest(url: url, processors: [fixture.processor("p1")]))
        let task2 = fixture.pipeline.imageTask(
            with: ImageRequest(url: url, processors: [fixture.processor("p1"), fixture.processor("p2")]))
        await fixture.loader.waitForLoads(count: 1)
        await fixture.pipeline.flush()
        fixture.loader.isSuspended = false

        // Then p1 runs once and both get the right chain
        #expect(try await task1.processorIDs == ["p1"])
        #expect(try await task2.processorIDs == ["p1", "p2"])
        #expect(fixture.processed.count("p1") == 1)
        #expect(fixture.processed.count("p2") == 1)
        #expect(fixture.loader.createdTaskCount == 1)
    }

    @Test func nonEquivalentURLRequestsLoadSeparately() async throws {
        // Given the same URL with different cache policies
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        let task1 = fixture.pipeline.imageTask(with: ImageRequest(urlRequest: URLRequest(url: url)))
        let task2 = fixture.pipeline.imageTask(
            with: ImageRequest(urlRequest: URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)))
        await fixture.loader.waitForLoads(count: 2)
        fixture.loader.isSuspended = false
        _ = try await task1.response
        _ = try await task2.response

        #expect(fixture.loader.createdTaskCount == 2)
    }

    @Test func differentHeadersLoadSeparately() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        var authorized = URLRequest(url: url)
        authorized.setValue("Bearer 1", forHTTPHeaderField: "Authorization")
        let task1 = fixture.pipeline.imageTask(with: ImageRequest(urlRequest: URLRequest(url: url)))
        let task2 = fixture.pipeline.imageTask(with: ImageRequest(urlRequest: authorized))
        await fixture.loader.waitForLoads(count: 2)
        fixture.loader.isSuspended = false
        _ = try await task1.response
        _ = try await task2.response
        #expect(fixture.loader.createdTaskCount == 2)
    }

    @Test func differentThumbnailsShareTheLoadButNotTheDecode() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        var request1 = ImageRequest(url: url)
        request1.thumbnail = .init(maxPixelSize: 100)
        var request2 = ImageRequest(url: url)
        request2.thumbnail = .init(maxPixelSize: 200)
        let task1 = fixture.pipeline.imageTask(with: request1)
        let task2 = fixture.pipeline.imageTask(with: request2)
        await fixture.loader.waitForLoads(count: 1)
        await fixture.pipeline.flush()
        fixture.loader.isSuspended = false
        _ = try await task1.response
        _ = try await task2.response

        #expect(fixture.loader.createdTaskCount == 1)
        #expect(fixture.decodes.total == 2)
    }

    @Test func coalescingDisabledLoadsTwice() async throws {
        let fixture = PipelineFixture { $0.isTaskCoalescingEnabled = false }
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        let task1 = fixture.pipeline.imageTask(with: url)
        let task2 = fixture.pipeline.imageTask(with: url)
        await fixture.loader.waitForLoads(count: 2)
        fixture.loader.isSuspended = false
        _ = try await task1.response
        _ = try await task2.response

        #expect(fixture.loader.createdTaskCount == 2)
        #expect(fixture.decodes.total == 2)
    }

    @Test func cancellingOneOfTwoKeepsTheOther() async throws {
        // Given two coalesced tasks
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        let task1 = fixture.pipeline.imageTask(with: url)
        let task2 = fixture.pipeline.imageTask(with: url)
        await fixture.loader.waitForLoads(count: 1)

        // When one is cancelled
        task1.cancel()
        await fixture.pipeline.flush()
        fixture.loader.isSuspended = false

        // Then the other still gets its image and the load wasn't cancelled
        #expect(await task1.result.error?.caseName == "cancelled")
        _ = try await task2.response
        #expect(fixture.loader.cancelledTaskCount == 0)
        #expect(task1.state == .cancelled)
        #expect(task2.state == .completed)
    }

    @Test func cancellingBothCancelsTheLoad() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        let task1 = fixture.pipeline.imageTask(with: url)
        let task2 = fixture.pipeline.imageTask(with: url)
        await fixture.loader.waitForLoads(count: 1)

        task1.cancel()
        task2.cancel()
        await fixture.loader.waitForCancellations(count: 1)

        #expect(fixture.loader.cancelledTaskCount == 1)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
        #expect(fixture.pipeline.configuration.dataLoadingQueue.runningCount == 0)
    }

    @Test func errorReachesEveryCoalescedSubscriber() async throws {
        let fixture = PipelineFixture()
        let url = Fixtures.url("a")
        fixture.loader.setError(for: url, URLError(.badServerResponse))
        fixture.loader.isSuspended = true
        let task1 = fixture.pipeline.imageTask(with: url)
        let task2 = fixture.pipeline.imageTask(with: ImageRequest(url: url, processors: [fixture.processor("p")]))
        await fixture.loader.waitForLoads(count: 1)
        await fixture.pipeline.flush()
        fixture.loader.isSuspended = false

        for task in [task1, task2] {
            let error = await task.result.error
            #expect(error?.caseName == "dataLoadingFailed")
            #expect((error?.underlyingError as? URLError)?.code == .badServerResponse)
        }
        #expect(fixture.loader.createdTaskCount == 1)
    }

    @Test func progressOfTwentyBytesInTwoChunks() async throws {
        // Given a 20-byte body delivered in two chunks
        let fixture = PipelineFixture()
        let url = Fixtures.url("a")
        fixture.loader.setResponse(for: url, data: Data(repeating: 7, count: 20))
        fixture.loader.chunkCount = 2
        fixture.loader.isSuspended = true
        let task1 = fixture.pipeline.imageTask(with: url)
        let task2 = fixture.pipeline.imageTask(with: url)
        let events1 = task1.events
        let events2 = task2.events
        await fixture.loader.waitForLoads(count: 1)
        await fixture.pipeline.flush()

        // When it loads
        fixture.loader.isSuspended = false

        // Then both coalesced tasks see (10, 20), (20, 20)
        for events in [events1, events2] {
            var progress: [ImageTask.Progress] = []
            for await event in events {
                if case let .progress(value) = event { progress.append(value) }
            }
            #expect(progress == [.init(completed: 10, total: 20), .init(completed: 20, total: 20)])
        }
        #expect(task1.currentProgress == .init(completed: 20, total: 20))
    }

    @Test func dataRequestsShareTheLoadWithImageRequests() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let url = Fixtures.url("a")
        let task = fixture.pipeline.imageTask(with: url)
        let gate = Gate()
        let received = LockedBox<Data?>(nil)
        fixture.pipeline.loadData(with: ImageRequest(url: url)) { result in
            received.value = try? result.get().data
            gate.open()
        }
        await fixture.loader.waitForLoads(count: 1)
        await fixture.pipeline.flush()
        fixture.loader.isSuspended = false
        _ = try await task.response
        await gate.wait()
        #expect(received.value == MockDataLoader.defaultData)
        #expect(fixture.loader.createdTaskCount == 1)
    }
}
