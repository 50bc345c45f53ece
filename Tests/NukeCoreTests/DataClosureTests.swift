import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

/// Requests whose bytes come from a data closure (`ImageRequest(id:data:)`): the closure runs in a Swift task of its
/// own that the load's cancellation reaches, may suspend, and may throw; closure loads go through the data loading
/// queue like any other load.
@Suite struct DataClosureTests {
    private struct ClosureError: Error, Equatable {}

    /// What a closure runs to say it has started and then wait until the test lets it go.
    private struct Hold: Sendable {
        private let entered = AsyncStream.makeStream(of: Void.self)
        private let gate = AsyncStream.makeStream(of: Void.self)

        /// In the closure: reports the start, then suspends until ``release()``.
        func enterAndWait() async {
            entered.continuation.yield()
            for await _ in gate.stream { break }
        }

        /// In the test: returns once the closure has started.
        func waitUntilEntered() async {
            for await _ in entered.stream { break }
        }

        func release() { gate.continuation.yield() }
    }

    /// A pipeline with the mock decoder (it decodes any non-empty bytes) and no caches; `decoded` receives the bytes
    /// each decode was given, by image ID.
    private func makePipeline(
        dataLoadingSlots: Int = 6, decoded: LockedBox<[String: Data]> = LockedBox([:])
    ) -> (ImagePipeline, CallCounter) {
        let decodes = CallCounter()
        let pipeline = ImagePipeline {
            $0.imageCache = nil
            $0.dataCache = nil
            $0.makeImageDecoder = { context in
                decoded.mutate { $0[context.request.imageID ?? ""] = context.data }
                return MockImageDecoder(counter: decodes)
            }
            $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: dataLoadingSlots)
        }
        return (pipeline, decodes)
    }

    @Test func aClosureThatReturnsAtOnceDeliversItsBytes() async throws {
        // Given many closures that return without suspending, started together
        let decoded = LockedBox<[String: Data]>([:])
        let (pipeline, decodes) = makePipeline(decoded: decoded)
        let calls = LockedBox(0)
        let tasks = (0..<200).map { index in
            pipeline.imageTask(
                with: ImageRequest(
                    id: "now-\(index)",
                    data: {
                        calls.mutate { $0 += 1 }
                        return Data("bytes-\(index)".utf8)
                    }))
        }

        // When
        var images = 0
        for task in tasks where (try? await task.response) != nil { images += 1 }

        // Then every request got its image, each closure ran once and each result was decoded once
        #expect(images == 200)
        #expect(calls.value == 200)
        #expect(decodes.count("MockImageDecoder") == 200)
        #expect((0..<200).allSatisfy { decoded.value["now-\($0)"] == Data("bytes-\($0)".utf8) })
    }

    @Test func anAwaitedClosureThatReturnsAtOnceRunsAndDecodesOnTheCallersThread() async throws {
        // Given a closure and a decoder that record their threads
        let threads = LockedBox<[String: pthread_t]>([:])
        let pipeline = ImagePipeline {
            $0.imageCache = nil
            $0.dataCache = nil
            $0.makeImageDecoder = { _ in
                threads.mutate { $0["decoder"] = pthread_self() }
                return MockImageDecoder()
            }
        }
        let request = ImageRequest(
            id: "awaited",
            data: {
                threads.mutate { $0["closure"] = pthread_self() }
                return Data([1, 2, 3])
            })

        // When the caller awaits the image
        _ = try await pipeline.image(for: request)

        // Then the closure and the decode ran on the caller's thread, and the request finished before the caller
        // awaited it: the caller goes on where it was, with no thread woken for either
        let caller = pthread_self()
        #expect(threads.value["closure"] == caller)
        #expect(threads.value["decoder"] == caller)
    }

    @TaskLocal private static var callerValue = "none"

    @Test func anAwaitedClosureDoesNotSeeTheCallersTaskLocalValues() async throws {
        // Given a closure that reads a task-local value
        let (pipeline, _) = makePipeline()
        let seen = LockedBox<String?>(nil)
        let request = ImageRequest(
            id: "task-local",
            data: {
                seen.mutate { $0 = Self.callerValue }
                return Data([1])
            })

        // When a caller that set the value awaits the image
        _ = try await Self.$callerValue.withValue("caller's") { try await pipeline.image(for: request) }

        // Then the closure ran in a task of its own, without the caller's value
        #expect(seen.value == "none")
    }

    @Test func aClosureThatAwaitsAnotherRequestOfThePipelineGetsItsResult() async throws {
        // Given a closure whose bytes are those of another closure request of the same pipeline
        let (pipeline, _) = makePipeline()
        let inner = ImageRequest(id: "inner", data: { Data([7, 8, 9]) })
        let outer = ImageRequest(id: "outer", data: { try await pipeline.data(for: inner).0 })

        // When the caller awaits the outer image, then its bytes
        _ = try await pipeline.image(for: outer)
        let (data, _) = try await pipeline.data(for: outer)

        // Then both complete, with the inner request's bytes
        #expect(data == Data([7, 8, 9]))
    }

    @Test func aClosureThatSuspendsCompletesWhenItResumes() async throws {
        // Given a closure that waits for the test before it returns its bytes
        let decoded = LockedBox<[String: Data]>([:])
        let (pipeline, _) = makePipeline(decoded: decoded)
        let hold = Hold()
        let task = pipeline.imageTask(
            with: ImageRequest(
                id: "suspends",
                data: {
                    await hold.enterAndWait()
                    return Data([4, 5, 6])
                }))

        // When the closure has started, suspended, and is then let go
        await hold.waitUntilEntered()
        #expect(task.state == .running)
        hold.release()

        // Then the request completes, decoded from the closure's bytes
        _ = try await task.response
        #expect(task.state == .completed)
        #expect(decoded.value["suspends"] == Data([4, 5, 6]))
    }

    @Test func aClosureThatThrowsFailsTheRequestWithItsError() async {
        // Given
        let (pipeline, decodes) = makePipeline()
        let request = ImageRequest(id: "throws", data: { throw ClosureError() })

        // When
        let result = await pipeline.imageTask(with: request).result

        // Then the request fails as a data load with the closure's own error, and nothing is decoded
        let error = result.error
        #expect(error?.caseName == "dataLoadingFailed")
        #expect(error?.dataLoadingError as? ClosureError == ClosureError())
        #expect(decodes.count("MockImageDecoder") == 0)
    }

    @Test func cancellingTheRequestCancelsTheClosuresTask() async {
        // Given a closure that waits until its Swift task is cancelled, then reports what it saw
        let (pipeline, _) = makePipeline()
        let (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
        let (seen, seenContinuation) = AsyncStream.makeStream(of: Bool.self)
        let task = pipeline.imageTask(
            with: ImageRequest(
                id: "cancelled",
                data: {
                    let (wake, wakeContinuation) = AsyncStream.makeStream(of: Void.self)
                    await withTaskCancellationHandler {
                        enteredContinuation.yield()
                        for await _ in wake { break }
                    } onCancel: {
                        wakeContinuation.yield()
                    }
                    seenContinuation.yield(Task.isCancelled)
                    throw CancellationError()
                }))

        // When the request is cancelled while its closure runs
        for await _ in entered { break }
        task.cancel()

        // Then the request ends cancelled, and the closure saw `Task.isCancelled`
        #expect(await task.result.error?.caseName == "cancelled")
        var sawCancel: Bool?
        for await value in seen {
            sawCancel = value
            break
        }
        #expect(sawCancel == true)
    }

    @Test func aRequestCancelledBeforeItsLoadStartsNeverCallsItsClosure() async throws {
        // Given the only data loading slot taken by a closure that waits for the test, and a request queued behind it
        let (pipeline, _) = makePipeline(dataLoadingSlots: 1)
        let hold = Hold()
        let blocker = pipeline.imageTask(
            with: ImageRequest(
                id: "blocker",
                data: {
                    await hold.enterAndWait()
                    return Data([1])
                }))
        await hold.waitUntilEntered()
        let calls = LockedBox(0)
        let queued = pipeline.imageTask(
            with: ImageRequest(
                id: "never",
                data: {
                    calls.mutate { $0 += 1 }
                    return Data([1])
                }))
        await pipeline.flush()

        // When it is cancelled while it waits, and the slot frees
        queued.cancel()
        #expect(await queued.result.error?.caseName == "cancelled")
        hold.release()
        _ = try await blocker.response
        await pipeline.flush()

        // Then its closure was never called
        #expect(calls.value == 0)
    }

    @Test func closureLoadsStartInPriorityOrderOneSlotAtATime() async throws {
        // Given one data loading slot, taken by a closure that waits for the test, and closures queued behind it
        let (pipeline, _) = makePipeline(dataLoadingSlots: 1)
        let order = LockedBox<[String]>([])
        let running = LockedBox((now: 0, most: 0))
        let hold = Hold()
        func request(_ name: String, _ priority: ImageRequest.Priority, waits: Bool = false) -> ImageRequest {
            ImageRequest(
                id: name,
                data: {
                    order.mutate { $0.append(name) }
                    running.mutate {
                        $0.now += 1
                        $0.most = max($0.most, $0.now)
                    }
                    if waits { await hold.enterAndWait() }
                    running.mutate { $0.now -= 1 }
                    return Data([7])
                },
                priority: priority)
        }
        let blocker = pipeline.imageTask(with: request("blocker", .normal, waits: true))
        await hold.waitUntilEntered()
        let queued = [("low", ImageRequest.Priority.low), ("high", .high), ("normal", .normal)].map {
            pipeline.imageTask(with: request($0.0, $0.1))
        }
        await pipeline.flush()

        // When the first closure returns
        hold.release()
        for task in [blocker] + queued { _ = try await task.response }

        // Then the queued closures ran one at a time, in priority order
        #expect(order.value == ["blocker", "high", "normal", "low"])
        #expect(running.value.most == 1)
    }
}
