import Foundation
import NukeCore
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loader whose cancellable keeps the callbacks it was given (as many loaders do, `MockDataLoader` among them).
/// The pipeline's load holds the cancellable and the callbacks hold the load, so the pipeline must let go of the
/// cancellable once the loader has called back, or every load stays in memory with the tasks it fed.
private final class CallbackKeepingLoader: DataLoading, @unchecked Sendable {
    // @unchecked: `tokens` is only touched under `lock`.
    final class Token: Cancellable, @unchecked Sendable {
        let didReceiveData: @Sendable (Data, URLResponse) -> Void
        let completion: @Sendable ((any Error)?) -> Void

        init(
            didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
            completion: @escaping @Sendable ((any Error)?) -> Void
        ) {
            self.didReceiveData = didReceiveData
            self.completion = completion
        }

        func cancel() {}
    }

    private struct WeakToken {
        weak var token: Token?
    }

    private let lock = NSLock()
    private var tokens: [WeakToken] = []
    /// Whether the loader calls back before `loadData` returns (else on another thread, soon after).
    let callsBackAtOnce: Bool

    init(callsBackAtOnce: Bool) {
        self.callsBackAtOnce = callsBackAtOnce
    }

    /// How many of the tokens handed out are still alive.
    var liveTokenCount: Int { lock.withLock { tokens.filter { $0.token != nil }.count } }

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        let token = Token(didReceiveData: didReceiveData, completion: completion)
        lock.withLock { tokens.append(WeakToken(token: token)) }
        let response = URLResponse(url: request.url!, mimeType: nil, expectedContentLength: 3, textEncodingName: nil)
        let deliver: @Sendable () -> Void = { [token] in
            token.didReceiveData(Data([1, 2, 3]), response)
            token.completion(nil)
        }
        if callsBackAtOnce { deliver() } else { DispatchQueue.global().async(execute: deliver) }
        return token
    }
}

@Suite struct LoaderCallbackLifetimeTests {
    @Test(arguments: [false, true])
    func aCancellableThatKeepsItsCallbacksIsReleasedAfterTheLoad(callsBackAtOnce: Bool) async throws {
        // Given a loader whose cancellables keep their callbacks
        let loader = CallbackKeepingLoader(callsBackAtOnce: callsBackAtOnce)
        var configuration = ImagePipeline.Configuration(dataLoader: loader, imageCache: nil)
        configuration.makeImageDecoder = { _ in ImageDecoders.Empty() }
        let pipeline = ImagePipeline(configuration: configuration)

        // When 20 loads complete
        for index in 0..<20 {
            _ = try await pipeline.image(for: ImageRequest(url: URL(string: "https://example.com/\(index)")!))
        }

        // Then the pipeline keeps none of their cancellables (nor, through them, the loads)
        #expect(await eventually { loader.liveTokenCount == 0 }, "\(loader.liveTokenCount) of 20 still alive")
    }
}
