import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

/// Priority seen end to end, with one data loading slot.
@Suite struct PriorityTests {
    private func makeFixture() -> PipelineFixture {
        let fixture = PipelineFixture {
            $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 1)
        }
        fixture.loader.isSuspended = true
        return fixture
    }

    /// Starts a task that occupies the only loading slot, then queues the others.
    private func start(
        _ fixture: PipelineFixture,
        queued: [(String, ImageRequest.Priority)]
    ) async -> [ImageTask] {
        let blocker = fixture.pipeline.imageTask(with: Fixtures.url("blocker"))
        await fixture.loader.waitForLoads(count: 1)
        let tasks = queued.map { name, priority in
            fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url(name), priority: priority))
        }
        await fixture.pipeline.flush()
        return [blocker] + tasks
    }

    private func loadOrder(_ fixture: PipelineFixture, _ tasks: [ImageTask]) async -> [String] {
        fixture.loader.isSuspended = false
        for task in tasks { _ = await task.result }
        return fixture.loader.requests.map { $0.url?.lastPathComponent ?? "" }
    }

    @Test func queuedWorkStartsInPriorityOrder() async {
        let fixture = makeFixture()
        let tasks = await start(fixture, queued: [("low", .low), ("high", .high), ("normal", .normal)])
        #expect(await loadOrder(fixture, tasks) == ["blocker", "high", "normal", "low"])
    }

    @Test func raisingAQueuedTaskLoadsItNext() async {
        let fixture = makeFixture()
        let tasks = await start(fixture, queued: [("a", .normal), ("b", .low)])

        tasks[2].priority = .high
        await fixture.pipeline.flush()

        #expect(await loadOrder(fixture, tasks) == ["blocker", "b", "a"])
    }

    @Test func lastPrioritySetWins() async {
        let fixture = makeFixture()
        let tasks = await start(fixture, queued: [("a", .normal), ("b", .normal)])

        tasks[1].priority = .veryHigh
        tasks[1].priority = .high
        tasks[1].priority = .veryLow
        tasks[2].priority = .low
        tasks[2].priority = .veryHigh
        #expect(tasks[1].priority == .veryLow)
        await fixture.pipeline.flush()

        #expect(await loadOrder(fixture, tasks) == ["blocker", "b", "a"])
    }

    @Test func highPriorityRequestJoiningRaisesTheSharedLoad() async {
        // Given "b" queued at low priority behind "a"
        let fixture = makeFixture()
        let tasks = await start(fixture, queued: [("a", .normal), ("b", .low)])

        // When a high-priority request for "b" joins
        let joiner = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("b"), priority: .veryHigh))
        await fixture.pipeline.flush()

        // Then "b" loads next, once
        #expect(await loadOrder(fixture, tasks + [joiner]) == ["blocker", "b", "a"])
    }

    @Test func priorityFallsBackWhenTheHighPriorityRequestLeaves() async {
        let fixture = makeFixture()
        let tasks = await start(fixture, queued: [("a", .normal), ("b", .low)])
        let joiner = fixture.pipeline.imageTask(with: ImageRequest(url: Fixtures.url("b"), priority: .veryHigh))
        await fixture.pipeline.flush()

        // When the high-priority request is cancelled
        joiner.cancel()
        await fixture.pipeline.flush()

        // Then "b" falls back behind "a"
        #expect(await loadOrder(fixture, tasks) == ["blocker", "a", "b"])
    }

    @Test func processorLevelsFollowThePriority() async {
        // A processed request's priority reaches the shared load through every level.
        let fixture = makeFixture()
        let tasks = await start(fixture, queued: [("a", .normal), ("b", .low)])
        let processed = fixture.pipeline.imageTask(
            with: ImageRequest(
                url: Fixtures.url("b"), processors: [fixture.processor("p1"), fixture.processor("p2")],
                priority: .veryHigh))
        await fixture.pipeline.flush()

        #expect(await loadOrder(fixture, tasks + [processed]) == ["blocker", "b", "a"])
    }
}
