import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeCore
import NukeTestKit
import Testing

@Suite("RecordedLoad")
struct RecordedLoadTests {
    private struct Failure: Error {}

    @Test func aWellBehavedLoadHasNoViolations() async throws {
        // Given a load that delivers two chunks and completes
        let (loader, load) = start()
        loader.chunk("ab")
        loader.chunk("c")
        loader.complete(nil)

        // Then the record is complete and clean
        try await load.waitForCompletion(timeout: .seconds(1))
        #expect(load.data == Data("abc".utf8) && load.chunkCount == 2 && load.largestChunkSize == 2)
        #expect(load.succeeded && load.violations.isEmpty)
    }

    @Test func callbacksAfterCompletionAreViolations() {
        // Given a completed load
        let (loader, load) = start()
        loader.complete(nil)

        // When more callbacks arrive
        loader.chunk("late")
        loader.complete(Failure())

        // Then both are reported
        #expect(load.violations == ["didReceiveData after completion", "completion called more than once"])
    }

    @Test func theCallbackUnderWayWhenCancelReturnsIsTolerated() {
        // Given loads cancelled from the test's thread
        let (first, inFlightSuccess) = start()
        inFlightSuccess.cancel()
        first.complete(nil)
        let (second, inFlightChunk) = start()
        inFlightChunk.cancel()
        second.chunk("x")
        second.complete(Failure())

        // Then one callback under way (and a later error completion) is fine
        #expect(inFlightSuccess.violations.isEmpty)
        #expect(inFlightChunk.violations.isEmpty)
    }

    @Test func moreThanTheCallbackUnderWayIsAViolation() {
        // Given loads cancelled from the test's thread that keep calling back
        let (first, twoChunks) = start()
        twoChunks.cancel()
        first.chunk("x")
        first.chunk("y")
        let (second, chunkThenSuccess) = start()
        chunkThenSuccess.cancel()
        second.chunk("x")
        second.complete(nil)

        // Then the second callback is reported
        #expect(twoChunks.violations == ["2 callbacks after cancel() returned"])
        #expect(chunkThenSuccess.violations == ["completion(nil) after cancel() returned"])
    }

    @Test func afterCancellingInsideACallbackOnlyAnErrorMayFollow() {
        // Given loads that cancel themselves in their first chunk
        let (first, chunkAfter) = start(cancelsOnFirstChunk: true)
        first.chunk("a")
        first.chunk("b")
        let (second, successAfter) = start(cancelsOnFirstChunk: true)
        second.chunk("a")
        second.complete(nil)
        let (third, errorAfter) = start(cancelsOnFirstChunk: true)
        third.chunk("a")
        third.complete(Failure())

        // Then anything but an error completion is reported, and the loader saw the cancel
        #expect(chunkAfter.violations == ["didReceiveData after cancel() returned (inside a callback)"])
        #expect(successAfter.violations == ["completion(nil) after cancel() returned"])
        #expect(errorAfter.violations.isEmpty)
        #expect(first.cancelCount == 1)
    }

    @Test func waitingForAChunkThatNeverComesTimesOut() async {
        // Given a load that never calls back
        let (_, load) = start()

        // Then a bounded wait fails with a description
        await #expect(throws: DataLoadingConformance.Failure.self) {
            try await load.waitForFirstChunk(timeout: .milliseconds(50))
        }
    }

    private func start(cancelsOnFirstChunk: Bool = false) -> (ManualLoader, RecordedLoad) {
        let loader = ManualLoader()
        let request = URLRequest(url: URL(string: "http://127.0.0.1/manual")!)
        return (loader, RecordedLoad(loader: loader, request: request, cancelsOnFirstChunk: cancelsOnFirstChunk))
    }
}

/// A loader whose callbacks the test calls by hand, synchronously.
private final class ManualLoader: DataLoading {
    private struct Callbacks {
        var didReceiveData: (@Sendable (Data, URLResponse) -> Void)?
        var completion: (@Sendable ((any Error)?) -> Void)?
        var cancels = 0
    }

    private let callbacks = LockedValueBox(Callbacks())

    var cancelCount: Int { callbacks.withLock { $0.cancels } }

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        callbacks.withLock {
            $0.didReceiveData = didReceiveData
            $0.completion = completion
        }
        return Token(loader: self)
    }

    func chunk(_ text: String) {
        let response = URLResponse(
            url: URL(string: "http://127.0.0.1/manual")!, mimeType: nil, expectedContentLength: -1,
            textEncodingName: nil)
        callbacks.withLock { $0.didReceiveData }?(Data(text.utf8), response)
    }

    func complete(_ error: (any Error)?) {
        callbacks.withLock { $0.completion }?(error)
    }

    private struct Token: Cancellable {
        let loader: ManualLoader

        func cancel() { loader.callbacks.withLock { $0.cancels += 1 } }
    }
}
