import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

/// Loads handed to a loader that admits them itself (``PrioritizedDataLoading``): past the data loading queue,
/// with their priority and the queue's limit, within the hand-over window, with priority changes and
/// cancellations passed down.
@Suite struct LoaderAdmissionTests {
    private func makePipeline(_ loader: AdmittingLoader, queueLimit: Int = 6) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in MockImageDecoder() }
            $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: queueLimit)
        }
    }

    private func start(
        _ names: [String], priority: ImageRequest.Priority = .normal, in pipeline: ImagePipeline
    ) -> [ImageTask] {
        names.map { pipeline.imageTask(with: ImageRequest(url: Fixtures.url($0), priority: priority)) }
    }

    @Test func loadsAreHandedOverPastTheQueueWithItsLimitAsThePerHostLimit() async throws {
        // Given a loader that admits loads itself and a data loading queue of two
        let loader = AdmittingLoader()
        let pipeline = makePipeline(loader, queueLimit: 2)

        // When ten requests start, at two priorities
        let tasks =
            start((0..<5).map { "n\($0)" }, in: pipeline)
            + start((0..<5).map { "h\($0)" }, priority: .high, in: pipeline)
        await pipeline.flush()

        // Then all ten reach the loader at once, each with its priority and the queue's limit, and none waits in
        // the queue
        let loads = loader.loads
        #expect(loads.count == 10)
        #expect(loads.allSatisfy { $0.limit == 2 })
        #expect(loads.filter { $0.priorities == [.high] }.count == 5)
        #expect(loads.filter { $0.priorities == [.normal] }.count == 5)
        #expect(pipeline.configuration.dataLoadingQueue.pendingCount == 0)
        #expect(pipeline.configuration.dataLoadingQueue.runningCount == 0)

        // When the loader answers them all
        loader.finishAll()

        // Then every request gets its image
        for task in tasks { _ = try await task.response }
    }

    @Test func priorityChangesAndCancellationsReachTheLoader() async {
        // Given two requests handed over
        let loader = AdmittingLoader()
        let pipeline = makePipeline(loader)
        let tasks = start(["a", "b"], in: pipeline)
        await pipeline.flush()

        // When one is raised, then lowered, and the other cancelled
        tasks[0].priority = .veryHigh
        tasks[0].priority = .low
        tasks[1].cancel()
        await pipeline.flush()

        // Then the loader sees both changes, in order, and the cancellation
        let loads = loader.loads
        #expect(loads.map(\.url) == ["a", "b"])
        #expect(loads[0].priorities == [.normal, .veryHigh, .low])
        #expect(!loads[0].isCancelled)
        #expect(loads[1].isCancelled)
        loader.finishAll()
        _ = await tasks[0].result
    }

    @Test func atMostTheHandOverLimitAreHandedOverAndTheRestWaitInPriorityOrder() async throws {
        // Given more requests than the hand-over window, the last ones at low and high priority
        let loader = AdmittingLoader()
        let pipeline = makePipeline(loader)
        let window = PipelineCore.handOverLimit
        var tasks = start((0..<window).map { "w\($0)" }, in: pipeline)
        tasks += start(["low"], priority: .low, in: pipeline)
        tasks += start(["high"], priority: .high, in: pipeline)
        await pipeline.flush()
        #expect(loader.loads.count == window)

        // When one handed-over load finishes, then another
        loader.finish(at: 0)
        await pipeline.flush()
        let afterFirst = loader.loads.count
        loader.finish(at: 1)
        await pipeline.flush()

        // Then the waiting ones are handed over one per finished load, the higher priority first
        #expect(afterFirst == window + 1)
        #expect(loader.loads.dropFirst(window).map(\.url) == ["high", "low"])
        loader.finishAll()
        for task in tasks { _ = try await task.response }
    }

    @Test func aSuspendedQueueHoldsLoadsAsForAnyLoader() async throws {
        // Given a suspended data loading queue
        let loader = AdmittingLoader()
        let pipeline = makePipeline(loader)
        pipeline.configuration.dataLoadingQueue.isSuspended = true

        // When a request starts
        let task = pipeline.imageTask(with: Fixtures.url("held"))
        await pipeline.flush()

        // Then it waits in the queue, and reaches the loader (through the plain call) when the queue resumes
        #expect(loader.loads.isEmpty)
        #expect(pipeline.configuration.dataLoadingQueue.pendingCount == 1)
        pipeline.configuration.dataLoadingQueue.isSuspended = false
        await pipeline.flush()
        #expect(loader.loads.map(\.limit) == [nil])
        loader.finishAll()
        _ = try await task.response
    }

    @Test func skippingTheQueueCallsThePlainLoadData() async throws {
        // Given a request that skips the data loading queue
        let loader = AdmittingLoader()
        let pipeline = makePipeline(loader)
        let request = ImageRequest(url: Fixtures.url("skip"), options: [.skipDataLoadingQueue])

        // When it starts
        let task = pipeline.imageTask(with: request)
        await pipeline.flush()

        // Then the loader gets it without a priority or limit of the pipeline's
        #expect(loader.loads.map(\.limit) == [nil])
        loader.finishAll()
        _ = try await task.response
    }
}

/// A ``PrioritizedDataLoading`` that records every load (its priority changes and cancellation too) and answers
/// only when told.
private final class AdmittingLoader: PrioritizedDataLoading {
    struct Load {
        let url: String
        /// `nil` for a plain `loadData` call.
        let limit: Int?
        var priorities: [ImageRequest.Priority]
        var isCancelled = false
        var isFinished = false
        let didReceiveData: @Sendable (Data, URLResponse) -> Void
        let completion: @Sendable ((any Error)?) -> Void
    }

    private let state = LockedValueBox([Load]())

    var loads: [Load] { state.withLock { $0 } }

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        record(request, limit: nil, priority: .normal, didReceiveData: didReceiveData, completion: completion)
    }

    func loadData(
        with request: URLRequest, priority: ImageRequest.Priority, maximumConcurrentLoadsPerHost: Int,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any PrioritizedCancellable {
        record(
            request, limit: maximumConcurrentLoadsPerHost, priority: priority, didReceiveData: didReceiveData,
            completion: completion)
    }

    private func record(
        _ request: URLRequest, limit: Int?, priority: ImageRequest.Priority,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> Handle {
        let load = Load(
            url: request.url?.lastPathComponent ?? "", limit: limit, priorities: [priority],
            didReceiveData: didReceiveData, completion: completion)
        let index = state.withLock {
            $0.append(load)
            return $0.count - 1
        }
        return Handle(loader: self, index: index)
    }

    /// Answers load `index` with a small body, unless it was cancelled or answered.
    func finish(at index: Int) {
        let load: Load? = state.withLock {
            guard !$0[index].isCancelled, !$0[index].isFinished else { return nil }
            $0[index].isFinished = true
            return $0[index]
        }
        guard let load, let url = URL(string: "https://example.com/\(load.url)") else { return }
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)!
        load.didReceiveData(Data([1, 2, 3]), response)
        load.completion(nil)
    }

    /// Answers every load recorded so far, and those they start.
    func finishAll() {
        var index = 0
        while index < state.withLock({ $0.count }) {
            finish(at: index)
            index += 1
        }
    }

    final class Handle: PrioritizedCancellable {
        let loader: AdmittingLoader
        let index: Int

        init(loader: AdmittingLoader, index: Int) {
            self.loader = loader
            self.index = index
        }

        func cancel() { loader.state.withLock { $0[index].isCancelled = true } }

        func setPriority(_ priority: ImageRequest.Priority) {
            loader.state.withLock { $0[index].priorities.append(priority) }
        }
    }
}
