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

/// What a ``DataLoad`` reports to, in mailbox jobs, in order.
protocol DataLoadReceiver: AnyObject, Sendable {
    /// Resumable bytes were taken for this load (the request now asks for the rest).
    func dataLoad(didTake resumable: ResumableData)
    /// A chunk of data arrived; `requestTime` is when the loader was called (seconds since 1970), for the HTTP
    /// cache's age calculation.
    func dataLoad(didReceive data: Data, response: URLResponse?, requestTime: Double)
    /// The load ended; `error` is `nil` on success.
    func dataLoad(didFinishWith error: (any Error)?)
}

/// One load: started off the graph when the data loading queue and the decoding backlog let it (takes resumable
/// data, lets the delegate adjust the request, calls the loader), and cancelled through the same object, also
/// before it started. Every callback is posted to the pipeline's mailbox, so the receiver sees them in order.
final class DataLoad: Sendable {
    let source: DataSource
    let request: ImageRequest
    let core: PipelineCore
    let isResumableDataEnabled: Bool
    /// Headers added to the URL request unless it sets them itself: a conditional request's validators.
    let extraHeaders: [String: String]
    /// The per-host limit passed to a loader that admits loads itself (``PrioritizedDataLoading``); `nil` when the
    /// load went through the pipeline's data loading queue (or skipped it), which calls the plain `loadData`.
    let perHostLimit: Int?
    /// The received bytes' hold on the decoding backlog, from the first byte (counted on the loader's thread,
    /// before the chunk waits in the mailbox); handed on with the complete data, released on failure or cancel.
    let ticket: ByteBudget.Ticket
    /// Held until the load is gone; the receiver drops its load when the load ends or is cancelled, so they
    /// don't keep each other alive.
    private let receiver: any DataLoadReceiver
    private let state = LockedValueBox(DataLoadState<any Cancellable>())

    init(
        source: DataSource, request: ImageRequest, core: PipelineCore, isResumableDataEnabled: Bool,
        extraHeaders: [String: String] = [:], priority: ImageRequest.Priority = .normal, perHostLimit: Int? = nil,
        receiver: any DataLoadReceiver
    ) {
        self.source = source
        self.request = request
        self.core = core
        self.isResumableDataEnabled = isResumableDataEnabled
        self.extraHeaders = extraHeaders
        self.perHostLimit = perHostLimit
        self.receiver = receiver
        self.ticket = core.decodingBacklog.take(0)
        if priority != .normal { state.withLock { $0.priority = priority } }
    }

    // MARK: Cancellation

    /// `true` once ``cancel()`` was called.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels the load (now, or as soon as it starts).
    func cancel() {
        let cancellables = state.withLock { $0.cancel() }
        ticket.release()
        for cancellable in cancellables { cancellable.cancel() }
    }

    /// Adds a cancellable of the running load; cancels it at once if the load was already cancelled.
    private func add(_ cancellable: any Cancellable) {
        if state.withLock({ $0.add(cancellable) }) == .cancelNow { cancellable.cancel() }
    }

    /// Passes the load's new priority to a loader that admits loads itself (``PrioritizedCancellable``); before
    /// the loader is called, it is the priority the loader gets.
    func setPriority(_ priority: ImageRequest.Priority) {
        let running = state.withLock { $0.setPriority(priority) }
        for case let handle as any PrioritizedCancellable in running { handle.setPriority(priority) }
    }

    // MARK: Starting

    /// Starts the load once the decoding backlog allows it; `operation` (if any) is finished when the load
    /// completes.
    func start(operation: TaskQueue.Operation?) {
        let budget = core.decodingBacklog
        // Within the budget (the common case) it starts without making the closure that waiting needs.
        guard budget.isAvailable else {
            return budget.whenAvailable { [self] in startNow(operation: operation) }
        }
        startNow(operation: operation)
    }

    private func startNow(operation: TaskQueue.Operation?) {
        guard !isCancelled else {
            operation?.finish()
            return
        }
        core.statistics.withLock { $0.dataLoadsStarted += 1 }
        switch source {
        case let .closure(closure):
            // A worker job that starts the closure's Swift task on its own thread (`Task.immediateDetached`): a
            // closure that returns without suspending costs no enqueue of the task and no second job, and the decode
            // that follows stays on the same thread. Started from a graph job, the worker job waits for the end of the
            // graph's batch (closures never run inside a graph job) and may then run on the awaiting caller's thread
            // (``OffGraphWorker/keepingFirstDispatch(_:)``) — detached, so never with the caller's task-local values;
            // started by a finishing load, it runs after that load on the same thread (see ``OffGraphWorker``).
            OffGraphWorker.run(qos: .default) { [self] in
                guard !isCancelled else { return operation?.finish() ?? () }
                let task = Task.immediateDetached(executorPreference: OffGraphExecutor.shared) { [self] in
                    await runClosure(closure, operation: operation)
                }
                add(TaskCancellable(task: task))
            }
        case var .urlRequest(urlRequest):
            for (name, value) in extraHeaders where urlRequest.value(forHTTPHeaderField: name) == nil {
                urlRequest.setValue(value, forHTTPHeaderField: name)
            }
            // A conditional request asks for the whole body or none of it, never for the rest of one.
            if isResumableDataEnabled, extraHeaders.isEmpty,
                let resumable = core.resumableData.take(for: DataKey(request))
            {
                resumable.resume(&urlRequest)
                core.mailbox.post { [receiver] in receiver.dataLoad(didTake: resumable) }
            }
            let isLocal =
                core.configuration.isLocalResourcesSupportEnabled && LocalDataLoader.canLoad(urlRequest.url)
            guard !isLocal, core.hasCustomDelegate, let pipeline = core.pipeline else {
                return begin(urlRequest, isLocal: isLocal, operation: operation)
            }
            let delegate = core.delegate
            let request = self.request
            let task = Task { [self] in
                do {
                    let adjusted = try await delegate.willLoadData(
                        for: request, urlRequest: urlRequest, pipeline: pipeline)
                    guard !isCancelled else { return operation?.finish() ?? () }
                    begin(adjusted, isLocal: false, operation: operation)
                } catch {
                    finish(error, operation: operation)
                }
            }
            add(TaskCancellable(task: task))
        }
    }

    /// Calls the closure in its Swift task (cancelled with the load) and posts its bytes, or its error, and the end
    /// of the load as one graph job.
    private func runClosure(_ closure: @Sendable () async throws -> Data, operation: TaskQueue.Operation?) async {
        let result: Result<Data, any Error>
        do {
            let data = try await closure()
            try Task.checkCancellation()
            ticket.add(data.count)
            result = .success(data)
        } catch {
            result = .failure(error)
        }
        operation?.finish()
        core.mailbox.post { [receiver] in
            switch result {
            case let .success(data):
                receiver.dataLoad(didReceive: data, response: nil, requestTime: 0)
                receiver.dataLoad(didFinishWith: nil)
            case let .failure(error):
                receiver.dataLoad(didFinishWith: error)
            }
        }
    }

    /// Calls the loader: with the load's priority and per-host limit when it was handed over to a loader that
    /// admits loads itself.
    private func begin(_ urlRequest: URLRequest, isLocal: Bool, operation: TaskQueue.Operation?) {
        let loader = isLocal ? LocalDataLoader() : core.dataLoader(for: request)
        let mailbox = core.mailbox
        let requestTime = Date().timeIntervalSince1970
        let didReceiveData: @Sendable (Data, URLResponse) -> Void = { [receiver, ticket] data, response in
            ticket.add(data.count)
            mailbox.post { [receiver] in
                receiver.dataLoad(didReceive: data, response: response, requestTime: requestTime)
            }
        }
        let completion: @Sendable ((any Error)?) -> Void = { [self] error in finish(error, operation: operation) }
        guard let perHostLimit, let admitting = loader as? any PrioritizedDataLoading else {
            return add(loader.loadData(with: urlRequest, didReceiveData: didReceiveData, completion: completion))
        }
        let priority = state.withLock { $0.priority }
        let handle = admitting.loadData(
            with: urlRequest, priority: priority, maximumConcurrentLoadsPerHost: perHostLimit,
            didReceiveData: didReceiveData, completion: completion)
        add(handle)
        // A change that came while the loader was being called reached no handle: passed on now.
        let latest = state.withLock { $0.priority }
        if latest != priority { handle.setPriority(latest) }
    }

    private func finish(_ error: (any Error)?, operation: TaskQueue.Operation?) {
        // The loader's cancellable may keep the callbacks, which keep this load: dropping it here ends that cycle
        // (else every load whose loader keeps its closures, as CurlDataLoader and MockDataLoader do, stayed in memory
        // with the task graph it fed). Nothing is left to cancel once the loader has called back.
        state.withLock { $0.finish() }
        operation?.finish()
        core.mailbox.post { [receiver] in receiver.dataLoad(didFinishWith: error) }
    }
}

/// The cancellation of a ``DataLoad`` as a value: the cancellables of the work it started (a Swift task, the
/// loader's transfer), and whether it was cancelled. Called under the load's lock; the cancellables it hands back
/// are cancelled after the lock is released.
struct DataLoadState<Work> {
    private(set) var isCancelled = false
    private(set) var isFinished = false
    private(set) var cancellables = SmallList<Work>()
    /// The load's latest priority (for a loader that admits loads itself).
    var priority = ImageRequest.Priority.normal

    /// What to do with work added by ``add(_:)``.
    enum AddAction: Equatable {
        /// Nothing: it is cancelled with the load (or dropped, when the load has finished already).
        case keep
        /// Cancel it now: the load was cancelled before the work started.
        case cancelNow
    }

    mutating func add(_ work: Work) -> AddAction {
        guard !isCancelled else { return .cancelNow }
        // A loader that called back before `loadData` returned: its work is done, and keeping it would keep the
        // load (see ``finish()``).
        guard !isFinished else { return .keep }
        cancellables.append(work)
        return .keep
    }

    /// The work ended: drops it (it may hold callbacks that hold the load). Later cancels have nothing to cancel.
    mutating func finish() {
        isFinished = true
        cancellables.removeAll()
    }

    /// Records a new priority; returns the running work to pass it to (none once the load ended or was cancelled).
    mutating func setPriority(_ priority: ImageRequest.Priority) -> SmallList<Work> {
        self.priority = priority
        return cancellables
    }

    /// Marks the load cancelled; returns the work to cancel (none on later calls).
    mutating func cancel() -> SmallList<Work> {
        guard !isCancelled else { return SmallList() }
        isCancelled = true
        defer { cancellables.removeAll() }
        return cancellables
    }
}

struct TaskCancellable: Cancellable {
    let task: Task<Void, Never>

    func cancel() { task.cancel() }
}
