import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

/// No task stays in any pool once its work ended, however it ended.
@Suite struct TaskLifetimeTests {
    @Test func afterSuccess() async throws {
        let fixture = PipelineFixture()
        _ = try await fixture.pipeline.image(
            for: ImageRequest(url: Fixtures.url("a"), processors: [fixture.processor("p")]))
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func afterFailure() async throws {
        let fixture = PipelineFixture()
        fixture.loader.setError(for: Fixtures.url("a"), URLError(.notConnectedToInternet))
        let task = fixture.pipeline.imageTask(
            with: ImageRequest(url: Fixtures.url("a"), processors: [fixture.processor("p")]))
        #expect(await task.result.error != nil)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func afterCancellation() async throws {
        let fixture = PipelineFixture()
        fixture.loader.isSuspended = true
        let task = fixture.pipeline.imageTask(
            with: ImageRequest(url: Fixtures.url("a"), processors: [fixture.processor("p")]))
        await fixture.loader.waitForLoads(count: 1)
        #expect(await fixture.liveTaskCounts() == [2, 1, 1, 1])
        task.cancel()
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func afterMemoryCacheHit() async throws {
        let fixture = PipelineFixture()
        let request = ImageRequest(url: Fixtures.url("a"))
        fixture.pipeline.cache[request] = ImageContainer(
            image: Fixtures.solidImage(width: 1, height: 1, color: .init(r: 0, g: 0, b: 0)))
        _ = try await fixture.pipeline.image(for: request)
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func afterDataTask() async throws {
        let fixture = PipelineFixture()
        _ = try await fixture.pipeline.data(for: Fixtures.url("a"))
        #expect(await fixture.liveTaskCounts() == [0, 0, 0, 0])
    }

    @Test func pipelineAndTasksAreReleased() async throws {
        weak var weakPipeline: ImagePipeline?
        do {
            let fixture = PipelineFixture()
            weakPipeline = fixture.pipeline
            _ = try await fixture.pipeline.image(for: Fixtures.url("a"))
            await fixture.pipeline.flush()
        }
        #expect(weakPipeline == nil)
    }
}
