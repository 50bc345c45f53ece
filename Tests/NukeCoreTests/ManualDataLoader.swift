import Foundation
import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loader the test drives by hand: each load waits until the test sends its response, chunks and end.
final class ManualDataLoader: DataLoading, @unchecked Sendable {
    // @unchecked: all mutable state is guarded by `lock`.

    /// One load: the test answers it.
    final class Load: Cancellable, @unchecked Sendable {
        // @unchecked: `isCancelled` is guarded by `lock`; the callbacks are immutable.
        let request: URLRequest
        private let didReceiveData: @Sendable (Data, URLResponse) -> Void
        private let completion: @Sendable ((any Error)?) -> Void
        private let lock = NSLock()
        private var response: URLResponse?
        private var isEnded = false
        private(set) var isCancelled: Bool {
            get { lock.withLock { _isCancelled } }
            set { lock.withLock { _isCancelled = newValue } }
        }
        private var _isCancelled = false

        init(
            request: URLRequest,
            didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
            completion: @escaping @Sendable ((any Error)?) -> Void
        ) {
            self.request = request
            self.didReceiveData = didReceiveData
            self.completion = completion
        }

        /// Sets the response for the chunks that follow.
        func respond(status: Int = 200, headers: [String: String] = [:]) {
            let url = request.url ?? URL(fileURLWithPath: "/")
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            lock.withLock { self.response = response }
        }

        func send(_ data: Data) {
            let response = lock.withLock { _isCancelled || isEnded ? nil : self.response }
            if let response { didReceiveData(data, response) }
        }

        func finish(_ error: (any Error)? = nil) {
            let shouldCall = lock.withLock { () -> Bool in
                guard !_isCancelled, !isEnded else { return false }
                isEnded = true
                return true
            }
            if shouldCall { completion(error) }
        }

        private var cancellationWaiters: [CheckedContinuation<Void, Never>] = []

        func cancel() {
            let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                _isCancelled = true
                defer { cancellationWaiters = [] }
                return cancellationWaiters
            }
            for waiter in waiters { waiter.resume() }
        }

        /// Returns once the load is cancelled.
        func waitForCancellation() async {
            await withCheckedContinuation { continuation in
                let isCancelled = lock.withLock { () -> Bool in
                    if !_isCancelled { cancellationWaiters.append(continuation) }
                    return _isCancelled
                }
                if isCancelled { continuation.resume() }
            }
        }
    }

    private let lock = NSLock()
    private var loads: [Load] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Load, Never>)] = []

    func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        let load = Load(request: request, didReceiveData: didReceiveData, completion: completion)
        let ready = lock.withLock { () -> [CheckedContinuation<Load, Never>] in
            loads.append(load)
            let ready = waiters.filter { $0.count <= loads.count }.map(\.continuation)
            waiters.removeAll { $0.count <= loads.count }
            return ready
        }
        for continuation in ready { continuation.resume(returning: load) }
        return load
    }

    /// The number of loads started so far.
    var count: Int { lock.withLock { loads.count } }

    /// Waits for the `index`-th load (0-based) to start and returns it.
    func load(_ index: Int) async -> Load {
        await withCheckedContinuation { continuation in
            let existing = lock.withLock { () -> Load? in
                if loads.count > index { return loads[index] }
                waiters.append((index + 1, continuation))
                return nil
            }
            if let existing { continuation.resume(returning: existing) }
        }
    }
}
