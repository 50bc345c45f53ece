import Foundation
import NukeCore
import Testing

@testable import NukeTestKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct MockDataLoaderTests {
    @Test func defaultResponseDeliversDefaultDataThenCompletesOnce() async {
        let loader = MockDataLoader()
        let recorder = await load(loader, Fixtures.url("a"))
        await drain(loader)

        #expect(MockDataLoader.defaultData == Data(1...20 as ClosedRange<UInt8>))
        #expect(recorder.chunks == [MockDataLoader.defaultData])
        #expect(recorder.completions.count == 1)
        #expect(recorder.completions.first.map { $0 == nil } == true)
        guard case .completion = recorder.events.last else {
            Issue.record("completion is not the last event: \(recorder.events)")
            return
        }
        #expect(loader.createdTaskCount == 2)
        #expect(loader.finishedTaskCount == 2)
        #expect(loader.cancelledTaskCount == 0)
    }

    @Test func recordedRequestsCanBeForgottenWhileTheCountsStay() async {
        let loader = MockDataLoader()
        _ = await load(loader, Fixtures.url("a"))
        await drain(loader)  // One more load, of its own URL.
        #expect(loader.requests.count == 2)

        loader.removeRecordedRequests()

        #expect(loader.requests.isEmpty)
        #expect(loader.createdTaskCount == 2)
        _ = await load(loader, Fixtures.url("b"))
        await drain(loader)
        #expect(loader.requests.first?.url == Fixtures.url("b"))
        #expect(loader.requests.count == 2)
    }

    @Test func scriptedResponseIsDelivered() async {
        let loader = MockDataLoader()
        let url = Fixtures.url("b")
        loader.setResponse(for: url, data: Data([9, 8, 7]), headers: ["Content-Type": "image/png"])
        let recorder = await load(loader, url)

        #expect(recorder.chunks == [Data([9, 8, 7])])
        let response = recorder.responses.first as? HTTPURLResponse
        #expect(response?.statusCode == 200)
        #expect(response?.url == url)
        #expect(response?.value(forHTTPHeaderField: "Content-Type") == "image/png")
        #expect(response?.expectedContentLength == 3)
    }

    @Test func responseHasContentLengthOfBody() async {
        let loader = MockDataLoader()
        let recorder = await load(loader, Fixtures.url("c"))
        let response = recorder.responses.first as? HTTPURLResponse
        #expect(response?.expectedContentLength == Int64(MockDataLoader.defaultData.count))
        #expect(response?.value(forHTTPHeaderField: "Content-Length") == "20")
    }

    @Test func scriptedContentLengthWins() async {
        let loader = MockDataLoader()
        let url = Fixtures.url("d")
        loader.setResponse(for: url, data: Data([1, 2]), headers: ["content-length": "100"])
        let recorder = await load(loader, url)
        #expect(recorder.responses.first?.expectedContentLength == 100)
    }

    @Test func chunkCountSplitsBodyInOrder() async {
        let loader = MockDataLoader()
        #expect(loader.chunkCount == 1)
        loader.chunkCount = 2
        let recorder = await load(loader, Fixtures.url("e"))

        #expect(recorder.chunks.map(\.count) == [10, 10])
        #expect(recorder.chunks == [Data(1...10 as ClosedRange<UInt8>), Data(11...20 as ClosedRange<UInt8>)])
        #expect(recorder.completions.count == 1)
        guard case .completion = recorder.events.last else {
            Issue.record("completion is not the last event")
            return
        }
    }

    @Test func unevenChunksPutExtraBytesFirst() async {
        let loader = MockDataLoader()
        loader.chunkCount = 3
        let recorder = await load(loader, Fixtures.url("f"))
        #expect(recorder.chunks.map(\.count) == [7, 7, 6])
        #expect(recorder.chunks.reduce(Data(), +) == MockDataLoader.defaultData)
    }

    @Test func moreChunksThanBytesDeliversOneBytePerChunk() async {
        let loader = MockDataLoader()
        let url = Fixtures.url("g")
        loader.setResponse(for: url, data: Data([1, 2, 3]))
        loader.chunkCount = 10
        let recorder = await load(loader, url)
        #expect(recorder.chunks == [Data([1]), Data([2]), Data([3])])
    }

    @Test func chunkCountBelowOneCountsAsOne() {
        let loader = MockDataLoader()
        loader.chunkCount = 0
        #expect(loader.chunkCount == 1)
    }

    @Test func emptyDataCompletesWithoutData() async {
        let loader = MockDataLoader()
        let url = Fixtures.url("empty")
        loader.setResponse(for: url, data: Data())
        let recorder = await load(loader, url)
        await drain(loader)
        #expect(recorder.chunks.isEmpty)
        #expect(recorder.completions.count == 1)
        #expect(recorder.completions.first.map { $0 == nil } == true)
    }

    @Test func notModifiedIsAResponseWithOneEmptyChunk() async {
        let loader = MockDataLoader()
        let url = Fixtures.url("unchanged")
        loader.setResponse(for: url, data: Data([1, 2, 3]), statusCode: 304, headers: ["ETag": "\"v1\""])
        let recorder = await load(loader, url)
        await drain(loader)

        #expect(recorder.chunks == [Data()])
        #expect(recorder.completions.count == 1)
        #expect(recorder.completions.first.map { $0 == nil } == true)
    }

    @Test(arguments: [199, 404, 500])
    func non2xxStatusFailsWithStatusCodeError(statusCode: Int) async {
        let loader = MockDataLoader()
        let url = Fixtures.url("status")
        loader.setResponse(for: url, data: Data([1, 2, 3]), statusCode: statusCode)
        let recorder = await load(loader, url)
        await drain(loader)

        #expect(recorder.chunks.isEmpty)
        #expect(recorder.completions.count == 1)
        let error = recorder.completions.first.flatMap { $0 } as? MockDataLoader.StatusCodeError
        #expect(error == MockDataLoader.StatusCodeError(statusCode: statusCode))
        #expect(loader.finishedTaskCount == 2)
    }

    @Test func scriptedErrorCompletesWithError() async {
        let loader = MockDataLoader()
        let url = Fixtures.url("error")
        loader.setError(for: url, TestError(id: 7))
        let recorder = await load(loader, url)
        await drain(loader)

        #expect(recorder.chunks.isEmpty)
        #expect(recorder.completions.count == 1)
        #expect(recorder.completions.first.flatMap { $0 } as? TestError == TestError(id: 7))
    }

    @Test func laterScriptReplacesEarlierOne() async {
        let loader = MockDataLoader()
        let url = Fixtures.url("replace")
        loader.setError(for: url, TestError(id: 1))
        loader.setResponse(for: url, data: Data([5]))
        let recorder = await load(loader, url)
        #expect(recorder.chunks == [Data([5])])
        #expect(recorder.completions.first.map { $0 == nil } == true)
    }

    @Test func deliveryNeverHappensInsideLoadData() async {
        let loader = MockDataLoader()
        let returned = DispatchSemaphore(value: 0)
        let deliveredAfterReturn = LockedValueBox<[Bool]>([])
        let completed = LockedValueBox<CheckedContinuation<Void, Never>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            completed.withLock { $0 = continuation }
            // A callback inside loadData would run before the signal below, and its wait would time out.
            let check: @Sendable () -> Void = {
                let result = returned.wait(timeout: .now() + 10) == .success
                returned.signal()
                deliveredAfterReturn.withLock { $0.append(result) }
            }
            _ = loader.loadData(
                with: URLRequest(url: Fixtures.url("async")),
                didReceiveData: { _, _ in check() },
                completion: { _ in
                    check()
                    completed.withLock { $0 }?.resume()
                }
            )
            returned.signal()
        }
        #expect(deliveredAfterReturn.snapshot == [true, true])
    }

    @Test func suspensionHoldsLoadsAndResumeDeliversInStartOrder() async {
        let loader = MockDataLoader()
        loader.isSuspended = true
        #expect(loader.isSuspended)
        let order = LockedValueBox<[String]>([])
        let names = ["a", "b", "c", "d"]

        func start(_ name: String) {
            _ = loader.loadData(
                with: URLRequest(url: Fixtures.url(name)),
                didReceiveData: { _, _ in order.withLock { $0.append("\(name).data") } },
                completion: { _ in order.withLock { $0.append("\(name).done") } }
            )
        }
        for name in names.prefix(3) { start(name) }
        #expect(loader.createdTaskCount == 3)
        #expect(loader.finishedTaskCount == 0)
        #expect(order.snapshot.isEmpty)

        loader.isSuspended = false
        start("d")
        await drain(loader)

        let expected = names.flatMap { ["\($0).data", "\($0).done"] }
        #expect(order.snapshot == expected)
        #expect(loader.finishedTaskCount == 5)
    }

    @Test func cancelBeforeDeliveryStopsAllCallbacksAndCountsOnce() async {
        let loader = MockDataLoader()
        loader.chunkCount = 4
        loader.isSuspended = true
        let recorder = LoadRecorder()
        let task = recorder.start(loader, Fixtures.url("cancel"))
        task.cancel()
        task.cancel()
        #expect(loader.cancelledTaskCount == 1)

        loader.isSuspended = false
        await drain(loader)

        #expect(recorder.events.isEmpty)
        #expect(loader.cancelledTaskCount == 1)
        #expect(loader.finishedTaskCount == 1)  // the drain load only
        #expect(loader.createdTaskCount == 2)
    }

    @Test func cancelDuringDeliveryStopsRemainingChunks() async {
        let loader = MockDataLoader()
        loader.chunkCount = 5
        let box = LockedValueBox<(any Cancellable)?>(nil)
        let chunks = LockedValueBox<[Data]>([])
        let completionCount = LockedValueBox(0)
        loader.isSuspended = true
        let task = loader.loadData(
            with: URLRequest(url: Fixtures.url("mid")),
            didReceiveData: { data, _ in
                chunks.withLock { $0.append(data) }
                box.withLock { $0 }?.cancel()
            },
            completion: { _ in completionCount.withLock { $0 += 1 } }
        )
        box.withLock { $0 = task }
        loader.isSuspended = false
        await loader.waitForCancellations(count: 1)
        await drain(loader)

        #expect(chunks.snapshot.count == 1)
        #expect(completionCount.snapshot == 0)
        #expect(loader.cancelledTaskCount == 1)
    }

    @Test func cancelAfterCompletionIsNotCounted() async {
        let loader = MockDataLoader()
        let recorder = LoadRecorder()
        let task = recorder.start(loader, Fixtures.url("done"))
        await recorder.waitForCompletion()
        task.cancel()
        #expect(loader.cancelledTaskCount == 0)
        #expect(loader.finishedTaskCount == 1)
    }

    @Test func waitForLoadsResumesWhenCountReached() async {
        let loader = MockDataLoader()
        loader.isSuspended = true
        let waiter = Task {
            await loader.waitForLoads(count: 2)
            return loader.createdTaskCount
        }
        LoadRecorder().start(loader, Fixtures.url("1"))
        LoadRecorder().start(loader, Fixtures.url("2"))
        #expect(await waiter.value >= 2)
    }

    @Test func waitForLoadsReturnsWhenAlreadyReached() async {
        let loader = MockDataLoader()
        await loader.waitForLoads(count: 0)
        loader.isSuspended = true
        LoadRecorder().start(loader, Fixtures.url("1"))
        await loader.waitForLoads(count: 1)
        #expect(loader.createdTaskCount == 1)
    }

    @Test func waitForCancellationsResumesWhenCountReached() async {
        let loader = MockDataLoader()
        loader.isSuspended = true
        let tasks = (0..<3).map { LoadRecorder().start(loader, Fixtures.url("\($0)")) }
        let waiter = Task {
            await loader.waitForCancellations(count: 2)
            return loader.cancelledTaskCount
        }
        tasks[0].cancel()
        tasks[0].cancel()
        tasks[2].cancel()
        #expect(await waiter.value == 2)
        await loader.waitForCancellations(count: 2)  // already reached
    }

    @Test func requestsAreLoggedInOrder() async {
        let loader = MockDataLoader()
        loader.isSuspended = true
        var first = URLRequest(url: Fixtures.url("first"))
        first.setValue("1", forHTTPHeaderField: "X-Test")
        let second = URLRequest(url: Fixtures.url("second"))
        LoadRecorder().start(loader, first)
        LoadRecorder().start(loader, second)

        #expect(loader.requests.map(\.url) == [Fixtures.url("first"), Fixtures.url("second")])
        #expect(loader.requests.first?.value(forHTTPHeaderField: "X-Test") == "1")
    }

    @Test func statusCodeErrorDescribesTheCode() {
        #expect("\(MockDataLoader.StatusCodeError(statusCode: 404))".contains("404"))
    }
}
