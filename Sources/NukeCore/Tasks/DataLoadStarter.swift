import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where the bytes of a request come from.
enum DataSource: Sendable {
    case urlRequest(URLRequest)
    case closure(@Sendable () async throws -> Data)

    init?(_ request: ImageRequest) {
        switch request.resource {
        case let .url(url?): self = .urlRequest(URLRequest(url: url))
        case let .urlRequest(urlRequest) where urlRequest.url != nil: self = .urlRequest(urlRequest)
        case let .closure(_, closure): self = .closure(closure)
        case .url(nil), .urlRequest, .imageClosure: return nil
        }
    }

    /// `true` for sources that go through a data loader (not `file:`, `data:` or a closure).
    var isRemote: Bool {
        if case let .urlRequest(request) = self { return !LocalDataLoader.canLoad(request.url) }
        return false
    }
}

/// Starts one load off the pipeline's actor, when the data loading queue lets it: takes resumable data,
/// lets the delegate adjust the request, and calls the loader. Every callback is posted to the pipeline's
/// mailbox, so the task sees them in order.
struct DataLoadStarter: Sendable {
    let source: DataSource
    let request: ImageRequest
    let core: PipelineCore
    let load: LoadHandle
    let isResumableDataEnabled: Bool
    let onResumableData: @Sendable @ImagePipelineActor (ResumableData) -> Void
    let didReceiveData: @Sendable @ImagePipelineActor (Data, URLResponse?) -> Void
    let completion: @Sendable @ImagePipelineActor ((any Error)?) -> Void

    /// Starts the load once the decoding backlog allows it; `operation` (if any) is finished when the load
    /// completes.
    func start(operation: TaskQueue.Operation?) {
        core.decodingBacklog.whenAvailable { [self] in startNow(operation: operation) }
    }

    private func startNow(operation: TaskQueue.Operation?) {
        guard !load.isCancelled else {
            operation?.finish()
            return
        }
        core.statistics.withLock { $0.dataLoadsStarted += 1 }
        let mailbox = core.mailbox
        let didReceiveData = self.didReceiveData
        let completion = self.completion
        let finish: @Sendable ((any Error)?) -> Void = { error in
            operation?.finish()
            mailbox.post { completion(error) }
        }
        switch source {
        case let .closure(closure):
            let task = Task {
                do {
                    let data = try await closure()
                    try Task.checkCancellation()
                    mailbox.post { didReceiveData(data, nil) }
                    finish(nil)
                } catch {
                    finish(error)
                }
            }
            load.set(TaskCancellable(task: task))
        case var .urlRequest(urlRequest):
            if isResumableDataEnabled, let resumable = core.resumableData.take(for: DataKey(request)) {
                resumable.resume(&urlRequest)
                let onResumableData = self.onResumableData
                mailbox.post { onResumableData(resumable) }
            }
            let isLocal =
                core.configuration.isLocalResourcesSupportEnabled && LocalDataLoader.canLoad(urlRequest.url)
            let loader = isLocal ? LocalDataLoader() : core.dataLoader(for: request)
            let begin: @Sendable (URLRequest) -> Void = { [load] urlRequest in
                let cancellable = loader.loadData(
                    with: urlRequest,
                    didReceiveData: { data, response in mailbox.post { didReceiveData(data, response) } },
                    completion: finish)
                load.set(cancellable)
            }
            guard !isLocal, core.hasCustomDelegate, let pipeline = core.pipeline else {
                return begin(urlRequest)
            }
            let delegate = core.delegate
            let request = self.request
            let load = self.load
            let task = Task {
                do {
                    let adjusted = try await delegate.willLoadData(
                        for: request, urlRequest: urlRequest, pipeline: pipeline)
                    guard !load.isCancelled else { return operation?.finish() ?? () }
                    begin(adjusted)
                } catch {
                    finish(error)
                }
            }
            load.set(TaskCancellable(task: task))
        }
    }
}

struct TaskCancellable: Cancellable {
    let task: Task<Void, Never>

    func cancel() { task.cancel() }
}
