import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ResumableDataTests {
    private struct Interrupted: Error {}

    private func makePipeline(_ loader: ManualDataLoader) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in MockImageDecoder() }
        }
    }

    private let resumableHeaders = ["Accept-Ranges": "bytes", "ETag": "\"v1\"", "Content-Length": "8"]

    /// Loads 4 of 8 bytes, then fails.
    private func interruptFirstLoad(
        _ loader: ManualDataLoader, _ pipeline: ImagePipeline, headers: [String: String]
    )
        async -> ImageTask
    {
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        let load = await loader.load(0)
        load.respond(headers: headers)
        load.send(Data([1, 2, 3, 4]))
        load.finish(Interrupted())
        _ = await task.result
        return task
    }

    /// The progress events of `events`, a stream made before the events it should see happen.
    private func progress(_ events: AsyncStream<ImageTask.Event>) async -> [ImageTask.Progress] {
        var values: [ImageTask.Progress] = []
        for await event in events {
            if case let .progress(progress) = event { values.append(progress) }
        }
        return values
    }

    @Test func resumesWithRangeAndAppendsA206() async throws {
        // Given a failed download of 4 of 8 bytes from a server that supports ranges
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        _ = await interruptFirstLoad(loader, pipeline, headers: resumableHeaders)

        // When the image is requested again
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        let stream = task.events  // Subscribed now, before any data arrives.
        let events = Task { await progress(stream) }
        let load = await loader.load(1)

        // Then the request asks for the rest, if unchanged
        #expect(load.request.value(forHTTPHeaderField: "Range") == "bytes=4-")
        #expect(load.request.value(forHTTPHeaderField: "If-Range") == "\"v1\"")

        // And a 206 is appended to the saved bytes, with progress counting them
        load.respond(status: 206, headers: ["Content-Length": "4", "Content-Range": "bytes 4-7/8"])
        load.send(Data([5, 6]))
        load.send(Data([7, 8]))
        load.finish()
        let response = try await task.response
        #expect(response.image.pixel(x: 0, y: 0) == .init(r: 1, g: 2, b: 3, a: 4))
        #expect(await events.value == [.init(completed: 6, total: 8), .init(completed: 8, total: 8)])
    }

    @Test func a200StartsOver() async throws {
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        _ = await interruptFirstLoad(loader, pipeline, headers: resumableHeaders)

        let task = pipeline.imageTask(with: Fixtures.url("a"))
        let load = await loader.load(1)
        #expect(load.request.value(forHTTPHeaderField: "Range") != nil)
        load.respond(status: 200, headers: ["Content-Length": "4"])
        load.send(Data([9, 9, 9, 9]))
        load.finish()
        #expect(try await task.image.pixel(x: 0, y: 0) == .init(r: 9, g: 9, b: 9, a: 9))
        #expect(task.currentProgress == .init(completed: 4, total: 4))
    }

    @Test func lastModifiedIsAValidator() async throws {
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let date = "Wed, 21 Oct 2025 07:28:00 GMT"
        _ = await interruptFirstLoad(
            loader, pipeline, headers: ["Accept-Ranges": "bytes", "Last-Modified": date, "Content-Length": "8"])
        _ = pipeline.imageTask(with: Fixtures.url("a"))
        #expect(await loader.load(1).request.value(forHTTPHeaderField: "If-Range") == date)
    }

    @Test(arguments: [
        ["Content-Length": "8", "ETag": "\"v1\""],  // no Accept-Ranges
        ["Content-Length": "8", "Accept-Ranges": "bytes"],  // no validator
        ["Content-Length": "8", "Accept-Ranges": "none", "ETag": "\"v1\""],
    ])
    func withoutServerSupportNothingIsKept(headers: [String: String]) async throws {
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        _ = await interruptFirstLoad(loader, pipeline, headers: headers)
        _ = pipeline.imageTask(with: Fixtures.url("a"))
        #expect(await loader.load(1).request.value(forHTTPHeaderField: "Range") == nil)
    }

    /// Found by the `http-headers` fuzz target (Tests/Fixtures/fuzz/http-headers-nul-validator): Foundation drops
    /// a header value with a control character from a request, so the range request went out without If-Range
    /// and could have appended another version's bytes.
    @Test(arguments: ["\"v\u{0}1\"", "Tue,\u{0}\u{0}V 01 Dec 2026", "\"a\u{1}\"", "\"del\u{7F}\"", ""])
    func aValidatorNoRequestCanCarryKeepsNothing(_ validator: String) throws {
        let response = try #require(
            HTTPURLResponse(
                url: Fixtures.url("a"), statusCode: 206, httpVersion: nil,
                headerFields: ["ETag": validator, "Content-Range": "bytes 0-3/8"]))
        #expect(response.value(forHTTPHeaderField: "ETag") == validator)
        #expect(
            ResumableData(response: response, data: Data(count: 4), expectedLength: 8, previousValidator: nil) == nil)
    }

    @Test func aValidatorWithTabsAndNonASCIIIsKept() throws {
        let response = try #require(
            HTTPURLResponse(
                url: Fixtures.url("a"), statusCode: 206, httpVersion: nil, headerFields: ["ETag": "\"é\tv\""]))
        let kept = try #require(
            ResumableData(response: response, data: Data(count: 4), expectedLength: 8, previousValidator: nil))
        var request = URLRequest(url: Fixtures.url("a"))
        kept.resume(&request)
        #expect(request.value(forHTTPHeaderField: "If-Range") == kept.validator)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelledDownloadIsResumable() async throws {
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        let task = pipeline.imageTask(with: Fixtures.url("a"))
        let load = await loader.load(0)
        load.respond(headers: resumableHeaders)
        load.send(Data([1, 2, 3, 4]))
        await pipeline.flush()
        task.cancel()
        await pipeline.flush()
        // The cancel reaches the loader as soon as its cancellable is handed back (which can be after the graph
        // has handled the cancel).
        await load.waitForCancellation()  // Hangs (and fails on the time limit) if the cancel is lost.

        _ = pipeline.imageTask(with: Fixtures.url("a"))
        #expect(await loader.load(1).request.value(forHTTPHeaderField: "Range") == "bytes=4-")
    }

    @Test func changedValidatorRestartsAndIsKeptAnew() async throws {
        // Given a resumed request that the server answers with a new version (200) that fails again
        let loader = ManualDataLoader()
        let pipeline = makePipeline(loader)
        _ = await interruptFirstLoad(loader, pipeline, headers: resumableHeaders)
        let second = pipeline.imageTask(with: Fixtures.url("a"))
        let load = await loader.load(1)
        load.respond(status: 200, headers: ["Accept-Ranges": "bytes", "ETag": "\"v2\"", "Content-Length": "10"])
        load.send(Data([7, 7]))
        load.finish(Interrupted())
        _ = await second.result

        // Then the next attempt resumes the new version from its own bytes
        _ = pipeline.imageTask(with: Fixtures.url("a"))
        let third = await loader.load(2)
        #expect(third.request.value(forHTTPHeaderField: "Range") == "bytes=2-")
        #expect(third.request.value(forHTTPHeaderField: "If-Range") == "\"v2\"")
    }

    @Test func disabledKeepsNothing() async throws {
        let loader = ManualDataLoader()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.isResumableDataEnabled = false
            $0.makeImageDecoder = { _ in MockImageDecoder() }
        }
        _ = await interruptFirstLoad(loader, pipeline, headers: resumableHeaders)
        _ = pipeline.imageTask(with: Fixtures.url("a"))
        #expect(await loader.load(1).request.value(forHTTPHeaderField: "Range") == nil)
    }

    @Test func storageIsBoundedByCost() {
        let storage = ResumableDataStorage(costLimit: 10)
        let response = HTTPURLResponse(
            url: Fixtures.url("a"), statusCode: 200, httpVersion: nil,
            headerFields: ["Accept-Ranges": "bytes", "ETag": "x", "Content-Length": "100"])!
        let key1 = DataKey(ImageRequest(url: Fixtures.url("1")))
        let key2 = DataKey(ImageRequest(url: Fixtures.url("2")))
        storage.store(
            ResumableData(response: response, data: Data(count: 6), expectedLength: 100, previousValidator: nil)!,
            for: key1)
        storage.store(
            ResumableData(response: response, data: Data(count: 6), expectedLength: 100, previousValidator: nil)!,
            for: key2)
        #expect(storage.take(for: key1) == nil)
        #expect(storage.take(for: key2)?.data.count == 6)
        #expect(storage.take(for: key2) == nil)
    }
}
