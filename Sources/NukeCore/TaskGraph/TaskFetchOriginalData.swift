import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loaded bytes, the loader's response and whether they came from the disk cache.
struct DataResponse: Sendable {
    var data: Data
    var urlResponse: URLResponse?
    var cacheType: ImageResponse.CacheType?
    /// The bytes' hold on the pipeline's byte budget (complete data only), released when their decode ends.
    var ticket: ByteBudget.Ticket?
}

/// Fetches the original bytes of an image: from the disk cache, else from the source — the configured
/// loader (paced by the rate limiter, limited by the data loading queue, resumed from an interrupted download
/// when possible), the built-in local loader for `file:`/`data:`, or the request's closure — and stores them
/// in the disk cache as the policy says.
final class TaskFetchOriginalData: PipelineTask<DataResponse>, DataLoadReceiver, @unchecked Sendable {
    private let core: PipelineCore
    private let request: ImageRequest
    private var data = Data()
    private var urlResponse: URLResponse?
    private var hasReceivedData = false
    private var expectedLength: Int64 = 0
    private var resumable: ResumableData?
    /// The validator of resumed bytes, kept in case the resumed transfer is interrupted again.
    private var validator: String?
    private var load: DataLoad?

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
        } then: { [self] data, _ in
            self.didReadCache(data, source: source)
        }
    }

    private func didReadCache(_ data: Data?, source: DataSource) {
        guard !isDisposed else { return }
        operation = nil
        if let data, !data.isEmpty {
            core.statistics.withLock { $0.diskCacheHits += 1 }
            let ticket = core.decodingBacklog.take(data.count)
            send(value: DataResponse(data: data, urlResponse: nil, cacheType: .disk, ticket: ticket), isCompleted: true)
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
            rateLimiter.execute { [self] in
                guard !self.isDisposed else { return false }
                self.enqueueLoad(source)
                return true
            }
        } else {
            enqueueLoad(source)
        }
    }

    private func enqueueLoad(_ source: DataSource) {
        let load = DataLoad(
            source: source, request: request, core: core,
            isResumableDataEnabled: core.configuration.isResumableDataEnabled && source.isRemote, receiver: self)
        self.load = load
        if request.options.contains(.skipDataLoadingQueue) {
            load.start(operation: nil)
        } else {
            operation = core.configuration.dataLoadingQueue.add(priority: priority) { load.start(operation: $0) }
        }
    }

    override func didCancel() {
        guard let load else { return }
        self.load = nil
        load.cancel()
        saveResumableData()
    }

    // MARK: DataLoadReceiver

    func dataLoad(didTake resumable: ResumableData) {
        if isDisposed {
            core.resumableData.store(resumable, for: DataKey(request))  // Cancelled meanwhile: keep it.
        } else {
            self.resumable = resumable
        }
    }

    func dataLoad(didReceive chunk: Data, response: URLResponse?) {
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
            // A first chunk that is the whole body is kept as it is: no second buffer, no copy.
            if reservation > data.count && !(data.isEmpty && Int64(chunk.count) >= expectedLength) {
                data.reserveCapacity(Int(reservation))
            }
        }
        if let response { urlResponse = response }
        if let limit = core.configuration.maximumResponseDataSize, data.count + chunk.count > limit {
            return fail(.dataDownloadExceededMaximumSize)
        }
        if data.isEmpty && Int64(chunk.count) >= expectedLength {
            data = chunk
        } else {
            data.append(chunk)
        }
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

    func dataLoad(didFinishWith error: (any Error)?) {
        guard !isDisposed else { return }
        let ticket = load?.ticket
        load = nil
        if let error {
            ticket?.release()
            saveResumableData()
            send(error: .dataLoadingFailed(error: error))
            return
        }
        guard !data.isEmpty else {
            ticket?.release()
            send(error: .dataIsEmpty)
            return
        }
        let response = DataResponse(data: data, urlResponse: urlResponse, ticket: ticket)
        data = Data()
        storeInDataCacheIfNeeded(response.data)
        send(value: response, isCompleted: true)
    }

    /// Stops the load and fails the task.
    private func fail(_ error: ImagePipeline.Error) {
        load?.cancel()
        load = nil
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
