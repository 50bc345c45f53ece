import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loaded bytes, the loader's response and whether they came from the disk cache.
struct DataResponse: Sendable {
    var data: Data
    var urlResponse: URLResponse?
    var cacheType: ImageResponse.CacheType?
}

/// Fetches the original bytes of an image: from the disk cache, else from the source — the configured
/// loader (paced by the rate limiter, limited by the data loading queue, resumed from an interrupted download
/// when possible), the built-in local loader for `file:`/`data:`, or the request's closure — and stores them
/// in the disk cache as the policy says.
@ImagePipelineActor
final class TaskFetchOriginalData: PipelineTask<DataResponse> {
    private let core: PipelineCore
    private let request: ImageRequest
    private var data = Data()
    private var urlResponse: URLResponse?
    private var hasReceivedData = false
    private var expectedLength: Int64 = 0
    private var resumable: ResumableData?
    /// The validator of resumed bytes, kept in case the resumed transfer is interrupted again.
    private var validator: String?
    private var load: LoadHandle?

    init(core: PipelineCore, request: ImageRequest) {
        self.core = core
        self.request = request
    }

    override func start() {
        guard let source = DataSource(request) else {
            send(error: .imageRequestMissing)
            return
        }
        guard let cache = core.readableDataCache(for: request) else {
            loadIfAllowed(source)
            return
        }
        let key = core.makeDataCacheKey(for: request.withoutProcessing)
        operation = core.runOffGraph(on: core.configuration.dataCachingQueue, priority: priority) {
            cache.cachedData(for: key)
        } then: { [weak self] data, _ in
            self?.didReadCache(data, source: source)
        }
    }

    private func didReadCache(_ data: Data?, source: DataSource) {
        guard !isDisposed else { return }
        operation = nil
        if let data, !data.isEmpty {
            core.statistics.withLock { $0.diskCacheHits += 1 }
            send(value: DataResponse(data: data, urlResponse: nil, cacheType: .disk), isCompleted: true)
        } else {
            loadIfAllowed(source)
        }
    }

    private func loadIfAllowed(_ source: DataSource) {
        guard !request.options.contains(.returnCacheDataDontLoad) else {
            send(error: .dataMissingInCache)
            return
        }
        let isPaced = source.isRemote && !request.options.contains(.skipDataLoadingQueue)
        if isPaced, let rateLimiter = core.rateLimiter {
            rateLimiter.execute { [weak self] in
                guard let self, !self.isDisposed else { return false }
                self.enqueueLoad(source)
                return true
            }
        } else {
            enqueueLoad(source)
        }
    }

    private func enqueueLoad(_ source: DataSource) {
        let load = LoadHandle()
        self.load = load
        onCancelled = { [weak self] in
            load.cancel()
            self?.saveResumableData()
        }
        let starter = DataLoadStarter(
            source: source, request: request, core: core, load: load,
            isResumableDataEnabled: core.configuration.isResumableDataEnabled && source.isRemote,
            onResumableData: { [weak self] in self?.didTakeResumableData($0) },
            didReceiveData: { [weak self] in self?.didReceive($0, response: $1) },
            completion: { [weak self] in self?.didFinish(error: $0) })
        if request.options.contains(.skipDataLoadingQueue) {
            starter.start(operation: nil)
        } else {
            operation = core.configuration.dataLoadingQueue.add(priority: priority) { starter.start(operation: $0) }
        }
    }

    private func didTakeResumableData(_ resumable: ResumableData) {
        if isDisposed {
            core.resumableData.store(resumable, for: DataKey(request))  // Cancelled meanwhile: keep it.
        } else {
            self.resumable = resumable
        }
    }

    private func didReceive(_ chunk: Data, response: URLResponse?) {
        guard !isDisposed else { return }
        if !hasReceivedData {
            hasReceivedData = true
            if let resumable, let response, resumable.isResumed(by: response) {
                data = resumable.data
                validator = resumable.validator
            }
            resumable = nil
            let announced = response?.expectedContentLength ?? -1
            let (total, overflow) = announced.addingReportingOverflow(Int64(data.count))
            expectedLength = announced > 0 && !overflow ? total : 0
            if let limit = core.configuration.maximumResponseDataSize, expectedLength > limit {
                return fail(.dataDownloadExceededMaximumSize)
            }
            // Trust the announced length only so far: a hostile server can announce anything.
            let reservation = min(expectedLength, Int64(core.configuration.maximumResponseDataSize ?? (8 << 20)))
            if reservation > data.count {
                data.reserveCapacity(Int(reservation))
            }
        }
        if let response { urlResponse = response }
        if let limit = core.configuration.maximumResponseDataSize, data.count + chunk.count > limit {
            return fail(.dataDownloadExceededMaximumSize)
        }
        data.append(chunk)
        core.statistics.withLock { $0.bytesLoaded += Int64(chunk.count) }
        let completed = Int64(data.count)
        if expectedLength > 0, completed > expectedLength {
            expectedLength = completed  // The server sent more than it announced.
        }
        send(progress: TaskProgress(completed: completed, total: expectedLength))
        // Partial data for previews: while bytes are missing, or for every chunk when the length is unknown.
        if core.configuration.isProgressiveDecodingEnabled, expectedLength == 0 || completed < expectedLength {
            send(value: DataResponse(data: data, urlResponse: urlResponse), isCompleted: false)
        }
    }

    private func didFinish(error: (any Error)?) {
        guard !isDisposed else { return }
        load = nil
        if let error {
            saveResumableData()
            send(error: .dataLoadingFailed(error: error))
            return
        }
        guard !data.isEmpty else {
            send(error: .dataIsEmpty)
            return
        }
        let response = DataResponse(data: data, urlResponse: urlResponse)
        data = Data()
        storeInDataCacheIfNeeded(response.data)
        send(value: response, isCompleted: true)
    }

    /// Stops the load and fails the task.
    private func fail(_ error: ImagePipeline.Error) {
        load?.cancel()
        operation?.cancel()
        send(error: error)
    }

    /// Keeps the bytes of an interrupted download if the server can resume it.
    private func saveResumableData() {
        guard core.configuration.isResumableDataEnabled else { return }
        let key = DataKey(request)
        if let response = urlResponse,
            let saved = ResumableData(
                response: response, data: data, expectedLength: expectedLength, previousValidator: validator)
        {
            core.resumableData.store(saved, for: key)
        } else if let resumable {
            core.resumableData.store(resumable, for: key)  // Taken but not used: put it back.
        }
        resumable = nil
    }

    private func storeInDataCacheIfNeeded(_ data: Data) {
        guard !request.isLocalResource, let cache = core.dataCache(for: request) else { return }
        let requests = publicRequests
        guard requests.contains(where: { !$0.options.contains(.disableDiskCacheWrites) }) else { return }
        switch core.configuration.dataCachePolicy {
        case .automatic:
            guard requests.contains(where: { !$0.isProcessed }) else { return }
        case .storeOriginalData, .storeAll:
            break
        case .storeEncodedImages:
            return
        }
        // `storeData` returns at once by contract (a cache stages writes), so a following read sees the data.
        let original = request.withoutProcessing
        core.storeData(data, image: nil, for: original, key: core.makeDataCacheKey(for: original), in: cache)
    }
}

/// Holds the cancellables of a load (the delegate's `willLoadData` step, then the loader's transfer), which may
/// start after the task was cancelled.
final class LoadHandle: Sendable {
    private struct State {
        var cancellables: [any Cancellable] = []
        var isCancelled = false
    }

    private let state = LockedValueBox(State())

    /// Adds a cancellable of the running load; cancels it at once if the task was already cancelled.
    func set(_ cancellable: any Cancellable) {
        let cancelNow = state.withLock { state in
            if !state.isCancelled { state.cancellables.append(cancellable) }
            return state.isCancelled
        }
        if cancelNow { cancellable.cancel() }
    }

    /// `true` once ``cancel()`` was called.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels the load (now, or as soon as it starts).
    func cancel() {
        let cancellables = state.withLock { state -> [any Cancellable] in
            guard !state.isCancelled else { return [] }
            state.isCancelled = true
            defer { state.cancellables = [] }
            return state.cancellables
        }
        for cancellable in cancellables { cancellable.cancel() }
    }
}
