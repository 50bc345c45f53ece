import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LoaderCurl
import LoaderURLSession
import NukeTestKit
import Testing

@testable import NukeCore

@Suite("ImagePipeline over real loaders")
struct PipelineLoaderTests {
    private static let slowChunks = (0..<5).map { FixturePattern.bytes(in: ($0 * 100)..<($0 * 100 + 100)) }

    @Test(arguments: LoaderKind.allCases)
    func coalescedRequestsMakeOneHTTPRequest(_ kind: LoaderKind) async throws {
        // Given a slowly served image and five requests for it with different processors
        let server = try LoopbackHTTPServer(routes: ["/img": .chunked(Self.slowChunks, delay: .milliseconds(20))])
        let pipeline = makePipeline(kind)
        let tasks = (0..<5).map { index in
            pipeline.imageTask(
                with: ImageRequest(url: server.url("/img"), processors: [MockImageProcessor(id: "p\(index)")]))
        }

        // When they all finish
        for task in tasks { _ = try await task.response }

        // Then the server saw a single request
        #expect(server.requests(for: "/img").count == 1)
    }

    @Test(arguments: LoaderKind.allCases)
    func cancellingTheOnlyTaskStopsTheTransfer(_ kind: LoaderKind) async throws {
        // Given a task whose response stalls after the first bytes
        let server = try LoopbackHTTPServer(routes: ["/img": .stall(afterSending: Data(count: 1000))])
        let pipeline = makePipeline(kind)
        let task = pipeline.imageTask(with: ImageRequest(urlRequest: held(server.url("/img"))))
        #expect(await task.firstProgress())

        // When it's cancelled
        task.cancel()

        // Then the loader drops the connection and the task reports cancellation
        try await server.waitUntil("the loader to drop the connection") { $0.abortedResponses == 1 }
        #expect(await task.result.error?.isCancelled == true)
    }

    @Test(arguments: LoaderKind.allCases)
    func cancellingOneOfTwoCoalescedTasksKeepsTheTransfer(_ kind: LoaderKind) async throws {
        // Given two tasks sharing a download the server answers only when told
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let server = try LoopbackHTTPServer(routes: [
            "/img": .handler { _ in
                release.wait()
                return .data(Data("image".utf8))
            }
        ])
        let pipeline = makePipeline(kind)
        let first = pipeline.imageTask(with: ImageRequest(urlRequest: held(server.url("/img"))))
        let second = pipeline.imageTask(with: ImageRequest(urlRequest: held(server.url("/img"))))
        try await server.waitForRequests(count: 1)

        // When the first is cancelled while the response is pending, then the server answers
        first.cancel()
        #expect(await first.result.error?.isCancelled == true)
        release.signal()

        // Then the second still gets its image from the one transfer
        let response = try await second.response
        #expect(response.image.width == 1)
        #expect(server.requests(for: "/img").count == 1)
        #expect(server.statistics.abortedResponses == 0)
    }

    @Test(arguments: LoaderKind.allCases)
    func queuedLoadsStartInPriorityOrder(_ kind: LoaderKind) async throws {
        // Given one loading slot, held by a request the server answers only when told
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let server = try LoopbackHTTPServer(routes: [
            "/hold": .handler { _ in
                release.wait()
                return .data(Data("hold".utf8))
            },
            "/img": .data(Data("image".utf8)),
        ])
        let pipeline = makePipeline(kind) { $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 1) }
        let hold = pipeline.imageTask(with: ImageRequest(urlRequest: held(server.url("/hold"))))
        try await server.waitForRequests(count: 1)

        // When four requests queue behind it with different priorities (one raised after it queued)
        let priorities: [(String, ImageRequest.Priority)] = [
            ("low", .low), ("normal", .normal), ("raised", .veryLow), ("high", .high),
        ]
        let tasks = priorities.map { name, priority in
            pipeline.imageTask(with: ImageRequest(url: server.url("/img?\(name)"), priority: priority))
        }
        await pipeline.flush()
        tasks[2].priority = .veryHigh
        await pipeline.flush()
        // They wait in the pipeline's queue, or in a loader that admits loads itself (`CurlDataLoader`, which got
        // them with the queue's limit of one per host, and the raised priority after they were handed over).
        #expect(pipeline.configuration.dataLoadingQueue.pendingCount == (kind == .curl ? 0 : 4))
        release.signal()

        // Then they reach the server highest priority first
        _ = try await hold.response
        for task in tasks { _ = try await task.response }
        #expect(server.requests.dropFirst().map(\.target) == ["/img?raised", "/img?high", "/img?normal", "/img?low"])
    }

    @Test(arguments: LoaderKind.allCases)
    func progressCountsUpToTheContentLength(_ kind: LoaderKind) async throws {
        // Given a 300 KB image
        let body = FixturePattern.bytes(in: 0..<300_000)
        let server = try LoopbackHTTPServer(routes: ["/img": .data(body)])
        let pipeline = makePipeline(kind)
        // Held until the stream exists: a loopback download can end before it is made (it then replays only the
        // `finished` event).
        pipeline.configuration.dataLoadingQueue.isSuspended = true
        let task = pipeline.imageTask(with: server.url("/img"))
        let events = task.events
        pipeline.configuration.dataLoadingQueue.isSuspended = false

        // When its events are collected
        var progress: [ImageTask.Progress] = []
        for await event in events {
            if case let .progress(value) = event { progress.append(value) }
        }

        // Then progress grows to the full length against the announced total
        #expect(!progress.isEmpty)
        #expect(progress.last == ImageTask.Progress(completed: 300_000, total: 300_000))
        #expect(progress.allSatisfy { $0.total == 300_000 })
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed < $1.completed })
        #expect(task.currentProgress.completed == 300_000)
    }

    @Test(arguments: LoaderKind.allCases)
    func responsesLargerThanTheLimitFailAndStopTheTransfer(_ kind: LoaderKind) async throws {
        // Given a 100 KB limit, a 20 MB body announced but stalling after 200 KB, and a chunked body of 64 KB
        // pieces every 50 ms (neither can finish before the pipeline reacts: the chunked one takes 10 s, so a cut
        // delayed by a loaded machine or a sanitizer still comes before its end)
        let server = try LoopbackHTTPServer(routes: [
            "/announced": .stall(afterSending: FixturePattern.bytes(in: 0..<200_000), declaredLength: 20 << 20),
            "/chunked": .chunked(
                (0..<200).map { FixturePattern.bytes(in: ($0 << 16)..<(($0 + 1) << 16)) }, delay: .milliseconds(50)),
        ])
        let pipeline = makePipeline(kind) { $0.maximumResponseDataSize = 100_000 }

        // When both are loaded
        let announced = await pipeline.imageTask(with: server.url("/announced")).result
        let chunked = await pipeline.imageTask(with: server.url("/chunked")).result

        // Then both fail with the size error, and the loader closed both connections early
        #expect(announced.error?.caseName == "dataDownloadExceededMaximumSize")
        #expect(chunked.error?.caseName == "dataDownloadExceededMaximumSize")
        try await server.waitUntil("both transfers to be cut") { $0.abortedResponses == 2 }
    }

    @Test(arguments: LoaderKind.allCases)
    func httpErrorsSurfaceAsDataLoadingFailures(_ kind: LoaderKind) async throws {
        // Given a 404
        let server = try LoopbackHTTPServer(routes: ["/missing": .status(404)])
        let pipeline = makePipeline(kind)

        // When it's requested
        let result = await pipeline.imageTask(with: server.url("/missing")).result

        // Then the loader's status error is wrapped, with the status available
        let error = try #require(result.error)
        #expect(error.caseName == "dataLoadingFailed")
        let status: Int? =
            switch kind {
            case .curl: (error.underlyingError as? CurlError)?.statusCode
            case .urlSession:
                (error.underlyingError as? DataLoader.Error).flatMap {
                    if case let .statusCodeUnacceptable(code) = $0 { code } else { nil }
                }
            }
        #expect(status == 404)
    }

    @Test(arguments: LoaderKind.allCases)
    func dataForURLReturnsTheBytesAndTheHTTPResponse(_ kind: LoaderKind) async throws {
        // Given a resource
        let body = FixturePattern.bytes(in: 0..<12_345)
        let server = try LoopbackHTTPServer(routes: ["/raw": .data(body, headers: ["Content-Type": "image/webp"])])

        // When its data is requested through the pipeline
        let (data, response) = try await makePipeline(kind).data(for: server.url("/raw"))

        // Then the bytes and the HTTP response come back
        #expect(data == body)
        #expect((response as? HTTPURLResponse)?.mimeType == "image/webp")
    }

    @Test(arguments: LoaderKind.allCases)
    func aHundredDistinctImagesLoadConcurrently(_ kind: LoaderKind) async throws {
        // Given 100 different images
        let server = try LoopbackHTTPServer(routes: ["/p": .pattern()])
        let pipeline = makePipeline(kind)
        let urls = (0..<100).map { server.url("/p?size=\(2000 + $0)&start=\($0 * 7)") }

        // When they're all requested at once
        let tasks = urls.map { pipeline.imageTask(with: $0) }
        var sizes: [Int] = []
        for task in tasks {
            let response = try await task.response
            sizes.append(response.image.width * response.image.height)
        }

        // Then each was loaded exactly once and decoded
        #expect(sizes == Array(repeating: 1, count: 100))
        #expect(server.requests.count == 100)
        #expect(Set(server.requests.map(\.target)).count == 100)
    }
}

extension ImagePipeline.Error {
    var caseName: String {
        switch self {
        case .dataMissingInCache: "dataMissingInCache"
        case .dataLoadingFailed: "dataLoadingFailed"
        case .dataIsEmpty: "dataIsEmpty"
        case .dataDownloadExceededMaximumSize: "dataDownloadExceededMaximumSize"
        case .decoderNotRegistered: "decoderNotRegistered"
        case .decodingFailed: "decodingFailed"
        case .processingFailed: "processingFailed"
        case .imageRequestMissing: "imageRequestMissing"
        case .pipelineInvalidated: "pipelineInvalidated"
        case .cancelled: "cancelled"
        }
    }
}

extension Result {
    var error: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}

/// A request the server holds on purpose: its idle timeout outlasts the test, whatever the machine's load (a
/// sanitizer run on two busy cores can take longer than the default 60 s to get back to it).
private func held(_ url: URL) -> URLRequest {
    var request = URLRequest(url: url)
    request.timeoutInterval = 3600
    return request
}
