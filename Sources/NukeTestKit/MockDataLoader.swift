#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif
public import Foundation
public import NukeCore

/// A scripted `DataLoading`.
///
/// `loadData` returns at once and records the request; delivery happens later on a private serial queue,
/// never inside `loadData`. The script for the request's URL is taken when the load starts:
/// - a response (``setResponse(for:data:statusCode:headers:)``, or ``defaultData`` with status 200 for URLs
///   without a script): for a 2xx status, `didReceiveData` once per chunk (see ``chunkCount``) with an
///   `HTTPURLResponse` whose `Content-Length` header, and so `expectedContentLength`, is the body size unless
///   the scripted headers set one; then `completion(nil)`. Empty data means no `didReceiveData` call. A `304`
///   is a response too: one empty chunk with it, then `completion(nil)`. For any other status nothing is
///   received and `completion` gets ``StatusCodeError``.
/// - an error (``setError(for:_:)``): `completion(error)` only.
///
/// After `cancel()` no callback starts (a chunk already being delivered on the queue may finish). Counters
/// are per instance, so tests can run in parallel.
public final class MockDataLoader: DataLoading {
    private struct State {
        var scripts: [URL: MockDataLoaderScript] = [:]
        var chunkCount = 1
        var isSuspended = false
        var heldLoads: [MockDataLoadTask] = []
        var createdTaskCount = 0
        var cancelledTaskCount = 0
        var finishedTaskCount = 0
        var requests: [URLRequest] = []
        var loadWaiters = CountWaiters()
        var cancellationWaiters = CountWaiters()
    }

    /// The body delivered for URLs with no scripted response: the 20 bytes `1, 2, …, 20`.
    public static let defaultData = Data(1...20 as ClosedRange<UInt8>)

    private let state = LockedValueBox(State())
    private let queue = DispatchQueue(label: "NukeTestKit.MockDataLoader")

    /// Creates a loader that serves ``defaultData`` for every URL.
    public init() {}

    /// Scripts loads of `url` to deliver `data` with `statusCode` and `headers`, replacing any earlier script.
    public func setResponse(for url: URL, data: Data, statusCode: Int = 200, headers: [String: String] = [:]) {
        state.withLock {
            $0.scripts[url] = .response(data: data, statusCode: statusCode, headers: headers)
        }
    }

    /// Scripts loads of `url` to complete with `error` and deliver nothing, replacing any earlier script.
    public func setError(for url: URL, _ error: any Error) {
        state.withLock { $0.scripts[url] = .failure(error) }
    }

    /// The number of chunks each body is split into (default 1; values below 1 count as 1). A 20-byte body
    /// with 2 chunks arrives as 10 + 10 bytes; uneven splits put the extra bytes first (7 + 7 + 6), and a
    /// body never arrives in more chunks than it has bytes. Taken when a load starts.
    public var chunkCount: Int {
        get { state.withLock { $0.chunkCount } }
        set { state.withLock { $0.chunkCount = max(1, newValue) } }
    }

    /// While `true`, loads are held after `loadData` returns (nothing is delivered); setting `false` delivers
    /// the held loads in the order they started, before any load started later.
    public var isSuspended: Bool {
        get { state.withLock { $0.isSuspended } }
        set {
            state.withLock { state in
                state.isSuspended = newValue
                guard !newValue else { return }
                // Enqueued under the lock so that loads started concurrently can't overtake held ones.
                for load in state.heldLoads {
                    queue.async { load.deliver() }
                }
                state.heldLoads.removeAll()
            }
        }
    }

    /// The number of `loadData` calls.
    public var createdTaskCount: Int {
        state.withLock { $0.createdTaskCount }
    }

    /// The number of loads cancelled before they completed; each load counts once, however often it is
    /// cancelled, and a cancel after completion doesn't count.
    public var cancelledTaskCount: Int {
        state.withLock { $0.cancelledTaskCount }
    }

    /// The number of loads that called `completion`; it is updated before `completion` is called.
    public var finishedTaskCount: Int {
        state.withLock { $0.finishedTaskCount }
    }

    /// Every request passed to `loadData`, in call order.
    public var requests: [URLRequest] {
        state.withLock { $0.requests }
    }

    /// Forgets the recorded ``requests`` (the counts stay). For a loader that serves millions of loads, such as
    /// the fuzz target's, where keeping every request would grow memory without bound.
    public func removeRecordedRequests() {
        state.withLock { $0.requests.removeAll(keepingCapacity: true) }
    }

    /// Starts a load of `request` as described in the type's documentation and returns at once.
    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        let (load, ready) = state.withLock { state in
            let script = request.url.flatMap { state.scripts[$0] }
            let load = MockDataLoadTask(
                request: request,
                script: script ?? .response(data: Self.defaultData, statusCode: 200, headers: [:]),
                chunkCount: state.chunkCount,
                owner: self,
                didReceiveData: didReceiveData,
                completion: completion
            )
            state.createdTaskCount += 1
            state.requests.append(request)
            if state.isSuspended {
                state.heldLoads.append(load)
            } else {
                queue.async { load.deliver() }
            }
            return (load, state.loadWaiters.removeReady(count: state.createdTaskCount))
        }
        for continuation in ready { continuation.resume() }
        return load
    }

    /// Suspends until at least `count` loads have been created; returns at once if they already have.
    /// Ignores task cancellation.
    public func waitForLoads(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isReady = state.withLock { state in
                guard state.createdTaskCount < count else { return true }
                state.loadWaiters.append(threshold: count, continuation)
                return false
            }
            if isReady { continuation.resume() }
        }
    }

    /// Suspends until at least `count` loads have been cancelled; returns at once if they already have.
    /// Ignores task cancellation.
    public func waitForCancellations(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isReady = state.withLock { state in
                guard state.cancelledTaskCount < count else { return true }
                state.cancellationWaiters.append(threshold: count, continuation)
                return false
            }
            if isReady { continuation.resume() }
        }
    }

    func loadDidCancel() {
        let ready = state.withLock { state in
            state.cancelledTaskCount += 1
            return state.cancellationWaiters.removeReady(count: state.cancelledTaskCount)
        }
        for continuation in ready { continuation.resume() }
    }

    func loadDidFinish() {
        state.withLock { $0.finishedTaskCount += 1 }
    }
}
