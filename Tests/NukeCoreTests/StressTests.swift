import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

@Suite struct StressTests {
    /// 2,000 requests over 50 URLs from many tasks, with random cancellations and priority changes.
    @Test func everyTaskEndsExactlyOnceAndPoolsEndEmpty() async throws {
        let fixture = PipelineFixture {
            $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 4)
            $0.imageDecodingQueue = TaskQueue(maxConcurrentOperationCount: 2)
        }
        fixture.loader.chunkCount = 3
        let processors = [fixture.processor("p1"), fixture.processor("p2")]
        let completions = LockedBox<[LockedBox<Int>]>([])
        let results = LockedBox(0)
        let streamEnds = LockedBox(0)

        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<20 {
                group.addTask {
                    var generator = SeededGenerator(seed: UInt64(worker + 1))
                    for index in 0..<100 {
                        let url = Fixtures.url("image-\(Int.random(in: 0..<50, using: &generator))")
                        let chain = Array(processors.prefix(Int.random(in: 0...2, using: &generator)))
                        let priority = ImageRequest.Priority.allCases.randomElement(using: &generator)!
                        let request = ImageRequest(url: url, processors: chain, priority: priority)
                        let calls = LockedBox(0)
                        completions.mutate { $0.append(calls) }
                        let task = fixture.pipeline.loadImage(with: request) { _ in calls.mutate { $0 += 1 } }
                        let events = task.events
                        switch Int.random(in: 0..<10, using: &generator) {
                        case 0..<3: task.cancel()
                        case 3..<6: task.priority = ImageRequest.Priority.allCases.randomElement(using: &generator)!
                        default: break
                        }
                        if index % 7 == 0 { await Task.yield() }
                        let result = await task.result
                        results.mutate { $0 += 1 }
                        var finishedEvents = 0
                        for await event in events {
                            if case .finished = event { finishedEvents += 1 }
                        }
                        if finishedEvents == 1 { streamEnds.mutate { $0 += 1 } }
                        if case let .failure(error) = result, !error.isCancelled {
                            Issue.record("Unexpected failure: \(error)")
                        }
                    }
                }
            }
        }

        fixture.pipeline.configuration.callbackQueue.sync {}
        #expect(results.value == 2000)
        #expect(completions.value.count == 2000)
        #expect(completions.value.allSatisfy { $0.value == 1 })
        #expect(streamEnds.value == 2000)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
        let queues = [
            fixture.pipeline.configuration.dataLoadingQueue, fixture.pipeline.configuration.imageDecodingQueue,
            fixture.pipeline.configuration.imageProcessingQueue,
        ]
        for queue in queues {
            #expect(queue.pendingCount == 0)
            #expect(queue.runningCount == 0)
        }
        #expect(fixture.loader.createdTaskCount <= 2000)
    }
}

/// A small deterministic random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
