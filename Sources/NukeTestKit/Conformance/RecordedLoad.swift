public import Foundation
public import NukeCore

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// One load started on a `DataLoading`, with every callback recorded and checked against the protocol's
/// contract as it happens.
///
/// ```swift
/// let load = RecordedLoad(loader: loader, request: URLRequest(url: url))
/// try await load.waitForCompletion()
/// #expect(load.data == expected && load.violations.isEmpty)
/// ```
///
/// Recorded violations: a callback running while another one of the same load is still running, a chunk or
/// a second completion after `completion`, and anything the cancellation contract forbids. Once ``cancel()``
/// returned (from another thread), one callback already under way may still arrive — a chunk, or a completion
/// of any kind — and then at most a completion with an error; a load cancelled from inside its own callback
/// (``cancelsOnFirstChunk``) may only get a completion with an error. Thread-safe; the recording callbacks take
/// a lock briefly.
public final class RecordedLoad: Sendable {
    /// What to keep of the body.
    public enum BodyStorage: Sendable {
        /// Keep every byte (``data``).
        case keep
        /// Keep nothing; compare the bytes against ``FixturePattern`` from `start` as they arrive
        /// (``matchesPattern``). For large bodies.
        case verifyPattern(start: Int)
    }

    private struct State {
        var data = Data()
        var byteCount = 0
        var chunkCount = 0
        var largestChunk = 0
        var response: URLResponse?
        var completions: [(any Error)?] = []
        var violations: [String] = []
        var isInCallback = false
        var isCancelled = false
        var chunksAfterCancel = 0
        var eventsAfterCancel = 0
        var matchesPattern = true
        var cancellable: (any Cancellable)?
        var firstChunkWaiters: [OnceContinuation] = []
        var completionWaiters: [OnceContinuation] = []
    }

    /// The request that was loaded.
    public let request: URLRequest
    /// Whether the load cancels itself from inside its first `didReceiveData` call.
    public let cancelsOnFirstChunk: Bool
    private let storage: BodyStorage
    private let state = LockedValueBox(State())

    /// Starts loading `request` on `loader` at once.
    ///
    /// - Parameters:
    ///   - loader: The loader under test.
    ///   - request: The request to load.
    ///   - storage: What to keep of the body (default: all of it).
    ///   - cancelsOnFirstChunk: Cancel the load from inside the first `didReceiveData` call.
    public init(
        loader: any DataLoading, request: URLRequest, storage: BodyStorage = .keep, cancelsOnFirstChunk: Bool = false
    ) {
        self.request = request
        self.storage = storage
        self.cancelsOnFirstChunk = cancelsOnFirstChunk
        let cancellable = loader.loadData(
            with: request,
            didReceiveData: { [self] data, response in didReceive(data, response) },
            completion: { [self] error in didComplete(error) })
        let cancelNow = state.withLock { state in
            state.cancellable = cancellable
            return state.isCancelled
        }
        if cancelNow { cancellable.cancel() }
    }

    /// Convenience for `RecordedLoad(loader:request: URLRequest(url: url), …)`.
    public convenience init(loader: any DataLoading, url: URL, storage: BodyStorage = .keep) {
        self.init(loader: loader, request: URLRequest(url: url), storage: storage)
    }

    // MARK: Results

    /// The body received so far (empty with ``BodyStorage/verifyPattern(start:)``).
    public var data: Data { state.withLock { $0.data } }
    /// The number of body bytes received so far.
    public var byteCount: Int { state.withLock { $0.byteCount } }
    /// The number of `didReceiveData` calls so far.
    public var chunkCount: Int { state.withLock { $0.chunkCount } }
    /// The size of the largest chunk so far.
    public var largestChunkSize: Int { state.withLock { $0.largestChunk } }
    /// The response passed with the last chunk.
    public var response: URLResponse? { state.withLock { $0.response } }
    /// The response as an `HTTPURLResponse`.
    public var httpResponse: HTTPURLResponse? { response as? HTTPURLResponse }
    /// The number of `completion` calls so far (the contract allows one).
    public var completionCount: Int { state.withLock { $0.completions.count } }
    /// `true` once `completion` was called.
    public var isCompleted: Bool { completionCount > 0 }
    /// The error of the first completion, or `nil` (also when not completed yet).
    public var error: (any Error)? { state.withLock { $0.completions.first ?? nil } }
    /// `true` when the load completed with `nil`.
    public var succeeded: Bool { state.withLock { $0.completions.first.map { $0 == nil } ?? false } }
    /// Contract violations seen so far, described.
    public var violations: [String] { state.withLock { $0.violations } }
    /// With ``BodyStorage/verifyPattern(start:)``: whether every byte so far matched.
    public var matchesPattern: Bool { state.withLock { $0.matchesPattern } }

    // MARK: Control

    /// Cancels the load; callbacks after the loader's `cancel()` returned are checked against the cancellation
    /// contract.
    ///
    /// The load counts as cancelled only once the loader's `cancel()` has returned: until then the loader may still
    /// deliver a chunk and its completion (the transfer finished on the loader's thread while this thread was on
    /// its way to `cancel()`), and that is no violation. A callback in the moment between `cancel()` returning and
    /// the mark is not checked.
    public func cancel() {
        let cancellable = state.withLock { $0.cancellable }
        cancellable?.cancel()
        state.withLock { $0.isCancelled = true }
    }

    /// Suspends until `completion` is called or `timeout` passes.
    ///
    /// - Throws: ``DataLoadingConformance/Failure`` on timeout.
    public func waitForCompletion(timeout: Duration = .seconds(20)) async throws {
        try await wait(for: "completion", timeout: timeout) { state, continuation in
            guard state.completions.isEmpty else { return true }
            state.completionWaiters.append(continuation)
            return false
        }
    }

    /// Suspends until the first chunk arrives or `timeout` passes.
    ///
    /// - Throws: ``DataLoadingConformance/Failure`` on timeout, or if the load completed without a chunk.
    public func waitForFirstChunk(timeout: Duration = .seconds(20)) async throws {
        try await wait(for: "the first chunk", timeout: timeout) { state, continuation in
            guard state.chunkCount == 0, state.completions.isEmpty else { return true }
            state.firstChunkWaiters.append(continuation)
            return false
        }
        if chunkCount == 0 {
            throw DataLoadingConformance.Failure(
                "\(request.url?.absoluteString ?? "?"): completed (\(describe(error))) without any chunk")
        }
    }

    // MARK: Callbacks

    private func didReceive(_ chunk: Data, _ response: URLResponse) {
        let (waiters, cancellable) = state.withLock { state -> ([OnceContinuation], (any Cancellable)?) in
            enterCallback(&state, "didReceiveData")
            if !state.completions.isEmpty { state.violations.append("didReceiveData after completion") }
            if state.isCancelled {
                state.chunksAfterCancel += 1
                state.eventsAfterCancel += 1
                if cancelsOnFirstChunk {
                    state.violations.append("didReceiveData after cancel() returned (inside a callback)")
                } else if state.eventsAfterCancel > 1 {
                    state.violations.append("\(state.eventsAfterCancel) callbacks after cancel() returned")
                }
            }
            switch storage {
            case .keep: state.data.append(chunk)
            case let .verifyPattern(start):
                if state.matchesPattern, !FixturePattern.matches(chunk, at: start + state.byteCount) {
                    state.matchesPattern = false
                }
            }
            state.byteCount += chunk.count
            state.chunkCount += 1
            state.largestChunk = max(state.largestChunk, chunk.count)
            state.response = response
            defer { state.firstChunkWaiters.removeAll() }
            let cancelNow = cancelsOnFirstChunk && state.chunkCount == 1 && !state.isCancelled
            if cancelNow { state.isCancelled = true }
            state.isInCallback = false
            return (state.firstChunkWaiters, cancelNow ? state.cancellable : nil)
        }
        // Cancelled inside the callback (still on the loader's thread), so nothing of this load may follow.
        cancellable?.cancel()
        for waiter in waiters { waiter.resume() }
    }

    private func didComplete(_ error: (any Error)?) {
        let waiters = state.withLock { state -> [OnceContinuation] in
            enterCallback(&state, "completion")
            if !state.completions.isEmpty { state.violations.append("completion called more than once") }
            if state.isCancelled {
                state.eventsAfterCancel += 1
                // A success may only be the one callback that was already under way when cancel() returned.
                if error == nil, cancelsOnFirstChunk || state.eventsAfterCancel > 1 {
                    state.violations.append("completion(nil) after cancel() returned")
                }
            }
            state.completions.append(error)
            state.isInCallback = false
            defer {
                state.completionWaiters.removeAll()
                state.firstChunkWaiters.removeAll()
            }
            return state.completionWaiters + state.firstChunkWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func enterCallback(_ state: inout State, _ name: String) {
        if state.isInCallback { state.violations.append("\(name) called while another callback was running") }
        state.isInCallback = true
    }

    private func wait(
        for what: String, timeout: Duration, register: @escaping (inout State, OnceContinuation) -> Bool
    ) async throws {
        let timedOut = LockedValueBox(false)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = OnceContinuation(continuation)
            guard !state.withLock({ register(&$0, waiter) }) else {
                waiter.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
                if waiter.resume() { timedOut.withLock { $0 = true } }
            }
        }
        if timedOut.snapshot {
            throw DataLoadingConformance.Failure(
                "\(request.url?.absoluteString ?? "?"): no \(what) within \(timeout) "
                    + "(\(chunkCount) chunks, \(byteCount) bytes so far)")
        }
    }
}
