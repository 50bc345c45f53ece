import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loaded bytes and the loader's response.
struct DataResponse: Sendable {
    var data: Data
    var urlResponse: URLResponse?
}

/// Loads the original bytes of an image: through the data loading queue, with the configured loader (or the
/// built-in local loader for `file:`/`data:`, or the request's closure).
@ImagePipelineActor
final class TaskFetchOriginalData: PipelineTask<DataResponse> {
    private let core: PipelineCore
    private let request: ImageRequest
    private var data = Data()
    private var urlResponse: URLResponse?
    private var expectedLength: Int64 = 0
    private let load = LoadHandle()

    init(core: PipelineCore, request: ImageRequest) {
        self.core = core
        self.request = request
    }

    override func start() {
        let source: DataSource
        switch request.resource {
        case let .url(url?):
            source = .urlRequest(URLRequest(url: url))
        case let .urlRequest(urlRequest) where urlRequest.url != nil:
            source = .urlRequest(urlRequest)
        case let .closure(_, closure):
            source = .closure(closure)
        case .url(nil), .urlRequest:
            send(error: .imageRequestMissing)
            return
        }
        let loader = core.configuration.dataLoader
        let mailbox = core.mailbox
        let load = self.load
        onCancelled = { load.cancel() }
        operation = core.configuration.dataLoadingQueue.add(priority: priority) { [weak self] operation in
            let cancellable = source.start(
                loader: loader,
                didReceiveData: { data, response in
                    mailbox.post { self?.didReceive(data, response: response) }
                },
                completion: { error in
                    operation.finish()
                    mailbox.post { self?.didFinish(error: error) }
                })
            load.set(cancellable)
        }
    }

    private func didReceive(_ chunk: Data, response: URLResponse?) {
        guard !isDisposed else { return }
        if urlResponse == nil, let response {
            urlResponse = response
            expectedLength = max(0, response.expectedContentLength)
        }
        if let limit = core.configuration.maximumResponseDataSize,
            expectedLength > limit || data.count + chunk.count > limit
        {
            fail(.dataDownloadExceededMaximumSize)
            return
        }
        data.append(chunk)
        let completed = Int64(data.count)
        send(progress: TaskProgress(completed: completed, total: max(expectedLength, completed)))
    }

    private func didFinish(error: (any Error)?) {
        guard !isDisposed else { return }
        if let error {
            send(error: .dataLoadingFailed(error: error))
        } else if data.isEmpty {
            send(error: .dataIsEmpty)
        } else {
            let response = DataResponse(data: data, urlResponse: urlResponse)
            data = Data()
            send(value: response, isCompleted: true)
        }
    }

    /// Stops the load and fails the task.
    private func fail(_ error: ImagePipeline.Error) {
        load.cancel()
        operation?.cancel()
        send(error: error)
    }
}

/// Where the bytes come from.
private enum DataSource: Sendable {
    case urlRequest(URLRequest)
    case closure(@Sendable () async throws -> Data)

    func start(
        loader: any DataLoading,
        didReceiveData: @escaping @Sendable (Data, URLResponse?) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        switch self {
        case let .urlRequest(request):
            let loader = LocalDataLoader.canLoad(request.url) ? LocalDataLoader() : loader
            return loader.loadData(with: request, didReceiveData: { didReceiveData($0, $1) }, completion: completion)
        case let .closure(closure):
            let task = Task {
                do {
                    let data = try await closure()
                    try Task.checkCancellation()
                    didReceiveData(data, nil)
                    completion(nil)
                } catch {
                    completion(error)
                }
            }
            return TaskCancellable(task: task)
        }
    }
}

private struct TaskCancellable: Cancellable {
    let task: Task<Void, Never>

    func cancel() { task.cancel() }
}

/// Holds the cancellable of a load that may start after the task was cancelled.
final class LoadHandle: Sendable {
    private struct State {
        var cancellable: (any Cancellable)?
        var isCancelled = false
    }

    private let state = LockedValueBox(State())

    /// Stores the running load's cancellable; cancels it at once if the task was already cancelled.
    func set(_ cancellable: any Cancellable) {
        let cancelNow = state.withLock { state in
            state.cancellable = cancellable
            return state.isCancelled
        }
        if cancelNow { cancellable.cancel() }
    }

    /// `true` once ``cancel()`` was called.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels the load (now, or as soon as it starts).
    func cancel() {
        let cancellable = state.withLock { state -> (any Cancellable)? in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            return state.cancellable
        }
        cancellable?.cancel()
    }
}
