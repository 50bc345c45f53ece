import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ByteBudgetTests {
    @Test func ticketsGrowAndGiveBackOnce() {
        let budget = ByteBudget(limit: 100)
        let ticket = budget.take(10)
        ticket.add(5)
        #expect(budget.used == 15)
        ticket.release()
        ticket.release()
        ticket.add(7)  // Released: adds nothing.
        #expect(budget.used == 0)
    }

    @Test func aDroppedTicketGivesItsBytesBack() {
        let budget = ByteBudget(limit: 100)
        do {
            let ticket = budget.take(40)
            #expect(ticket.bytes == 40)
        }
        #expect(budget.used == 0)
    }

    @Test func workWaitsWhileOverTheLimitThenRunsInOrder() {
        let budget = ByteBudget(limit: 10)
        let ticket = budget.take(11)
        let ran = LockedValueBox<[Int]>([])
        budget.whenAvailable { ran.withLock { $0.append(1) } }
        budget.whenAvailable { ran.withLock { $0.append(2) } }
        #expect(ran.snapshot.isEmpty)
        ticket.release()
        #expect(ran.snapshot == [1, 2])
        budget.whenAvailable { ran.withLock { $0.append(3) } }  // Under the limit: at once.
        #expect(ran.snapshot == [1, 2, 3])
    }
}

/// The pipeline counts a request's bytes from the first received chunk until the caller receives the image, and
/// gives every byte back on every path.
@Suite struct PipelineByteBudgetTests {
    private func makePipeline(_ loader: ManualDataLoader) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in MockImageDecoder() }
        }
    }

    /// Starts a request for the image at "a" and sends `chunk` of its data.
    private func startLoad(
        _ loader: ManualDataLoader, _ pipeline: ImagePipeline, chunk: Data
    ) async -> (ImageTask, ManualDataLoader.Load) {
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        let load = await loader.load(0)
        load.respond()
        load.send(chunk)
        return (task, load)
    }

    private func used(_ pipeline: ImagePipeline) async -> Int {
        await pipeline.flush()
        return pipeline.core.decodingBacklog.used
    }

    @Test func chunksCountAsTheyArriveAndTheReceivedImageIsNoLongerCounted() async throws {
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let (task, load) = await startLoad(loader, pipeline, chunk: Data([1, 2, 3, 4]))
        #expect(await used(pipeline) == 4)
        load.send(Data([5, 6]))
        #expect(await used(pipeline) == 6)

        load.finish()
        let image = try await task.image
        #expect(image.width == 1)
        #expect(await used(pipeline) == 0)
    }

    @Test func aCancelledDownloadGivesItsBytesBack() async throws {
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let (task, _) = await startLoad(loader, pipeline, chunk: Data([1, 2, 3, 4]))
        #expect(await used(pipeline) == 4)

        task.cancel()
        #expect(await used(pipeline) == 0)
    }

    @Test func aFailedDownloadGivesItsBytesBack() async throws {
        struct Failure: Error {}
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let (task, load) = await startLoad(loader, pipeline, chunk: Data([1, 2, 3, 4]))
        load.finish(Failure())
        _ = try? await task.image
        #expect(await used(pipeline) == 0)
    }

    @Test func aResultNobodyAwaitsIsTheAppsAtOnce() async throws {
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let finished = Gate()
        _ = pipeline.loadImage(with: Fixtures.url("a")) { _ in finished.open() }
        let load = await loader.load(0)
        load.respond()
        load.send(Data([1, 2, 3, 4]))
        load.finish()
        await finished.wait()
        #expect(await used(pipeline) == 0)
    }
}
