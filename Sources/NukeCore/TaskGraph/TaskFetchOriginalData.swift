import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loaded bytes, the loader's response and whether they came from the disk cache.
struct DataResponse: Sendable {
    var data: Data
    var urlResponse: URLResponse?
    var cacheType: ImageResponse.CacheType?
    /// The HTTP metadata of the response the bytes came from (the pipeline follows HTTP headers), updated by a
    /// revalidation.
    var httpMetadata: HTTPCacheMetadata?
    /// `true` for a stale disk cache entry served as it is (``ImageResponse/isStale``).
    var isStale = false
    /// The bytes' hold on the pipeline's byte budget (complete data only), released when their decode ends.
    var ticket: ByteBudget.Ticket?
}

/// Fetches the original bytes of an image: from the disk cache, else from the source — the configured
/// loader (paced by the rate limiter, limited by the data loading queue, resumed from an interrupted download
/// when possible), the built-in local loader for `file:`/`data:`, or the request's closure — and stores them
/// in the disk cache as the policy says.
///
/// Following HTTP headers (``ImagePipeline/HTTPCachePolicy/followHeaders``), a cached original is served only while
/// it is fresh; a stale one is kept while a conditional request revalidates it (a `304` serves it and stores its
/// updated metadata; new bytes replace it), and served anyway when the load fails and its `stale-if-error` (or the
/// offline option) allows. A cacheable error status is stored without a body and fails requests while fresh.
final class TaskFetchOriginalData: PipelineTask<DataResponse>, DataLoadReceiver, @unchecked Sendable {
    private let core: PipelineCore
    private let request: ImageRequest
    private var data = Data()
    private var urlResponse: URLResponse?
    private var hasReceivedData = false
    /// `true` once room for the announced length was reserved in ``data``.
    private var isReserved = false
    private var expectedLength: Int64 = 0
    private var resumable: ResumableData?
    /// The validator of resumed bytes, kept in case the resumed transfer is interrupted again.
    private var validator: String?
    private var load: DataLoad?
    /// A stale cached original being revalidated or loaded again (following HTTP headers).
    private var staleEntry: (metadata: HTTPCacheMetadata, body: Data)?
    /// When the loader was called and the response arrived (seconds since 1970), for the HTTP metadata.
    private var requestTime: Double = 0
    private var responseTime: Double = 0
    /// `true` once the loader answered the conditional request with `304 Not Modified`.
    private var isNotModified = false
    /// The response of a status the loader fails, which it handed over without a body before the error: following
    /// HTTP headers, its status may be stored (negative caching).
    private var rejectedResponse: HTTPURLResponse?
    /// `true` when the disk cache held a stored error status for the request (stale, or with the headers ignored).
    private var hasFailureEntry = false

    init(core: PipelineCore, request: ImageRequest) {
        self.core = core
        self.request = request
    }

    /// A background revalidation of a stale entry that was served (`stale-while-revalidate`): loads with a
    /// conditional request and stores the result, without reading the cache first.
    init(core: PipelineCore, request: ImageRequest, revalidating metadata: HTTPCacheMetadata, body: Data) {
        self.core = core
        self.request = request
        self.staleEntry = (metadata, body)
    }

    override func start() {
        guard let source = DataSource(request) else {
            send(error: .imageRequestMissing)
            return
        }
        if staleEntry != nil {
            return loadIfAllowed(source)  // A background revalidation.
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
        guard let data, !data.isEmpty else { return loadIfAllowed(source) }
        let entry = HTTPCacheEntry(decoding: data)
        if case let .failure(metadata) = entry {
            return didReadFailure(metadata, source: source)
        }
        guard let body = entry.body, !body.isEmpty else { return loadIfAllowed(source) }  // Damaged: a miss.
        guard core.followsHTTPHeaders, let metadata = entry.metadata else {
            return serveCached(body, metadata: entry.metadata)
        }
        // Another variant (`Vary`): a miss. The response to this request replaces it.
        guard metadata.matchesVary(of: request.urlRequest) else { return loadIfAllowed(source) }
        let now = Date()
        if request.options.contains(.returnCacheDataDontLoad) {
            return serveCached(body, metadata: metadata, isStale: !metadata.isFresh(at: now))
        }
        switch metadata.decision(at: now) {
        case .fresh:
            serveCached(body, metadata: metadata)
        case .staleWhileRevalidate:
            serveCached(body, metadata: metadata, isStale: true)
            core.revalidateInBackground(request, metadata: metadata, body: body)
        case .revalidate, .reload:
            staleEntry = (metadata, body)
            loadIfAllowed(source)
        }
    }

    /// A stored error status: while fresh (following HTTP headers, for the variant it was stored for) the request
    /// fails with it and nothing is loaded; otherwise it is a miss, and the response that replaces it is stored.
    private func didReadFailure(_ metadata: HTTPCacheMetadata, source: DataSource) {
        hasFailureEntry = true
        guard core.followsHTTPHeaders, metadata.matchesVary(of: request.urlRequest),
            metadata.decision(at: Date()) == .fresh
        else { return loadIfAllowed(source) }
        send(error: .dataLoadingFailed(error: CachedHTTPStatusError(metadata: metadata, url: request.url)))
    }

    /// Completes with bytes from the disk cache.
    private func serveCached(_ body: Data, metadata: HTTPCacheMetadata?, isStale: Bool = false) {
        core.statistics.withLock {
            $0.diskCacheHits += 1
            if isStale { $0.staleHits += 1 }
        }
        let ticket = core.decodingBacklog.take(body.count)
        var response = DataResponse(data: body, urlResponse: nil, cacheType: .disk, ticket: ticket)
        response.httpMetadata = metadata
        response.isStale = isStale
        send(value: response, isCompleted: true)
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
        let queue = core.configuration.dataLoadingQueue
        let isQueued = !request.options.contains(.skipDataLoadingQueue)
        // A loader that admits loads per host itself (``PrioritizedDataLoading``) gets them past the queue, within
        // the hand-over window, with the queue's limit as the per-host limit.
        let isHandedOver = isQueued && source.isRemote && !queue.isSuspended && core.admitsLoads(for: request)
        let load = DataLoad(
            source: source, request: request, core: core,
            isResumableDataEnabled: core.configuration.isResumableDataEnabled && source.isRemote,
            extraHeaders: staleEntry?.metadata.conditionalHeaders ?? [:], priority: priority,
            perHostLimit: isHandedOver ? queue.maxConcurrentOperationCount : nil, receiver: self)
        self.load = load
        if !isQueued {
            load.start(operation: nil)
        } else {
            operation = (isHandedOver ? core.handOverQueue : queue).add(priority: priority) {
                load.start(operation: $0)
            }
        }
    }

    override func didChangePriority() {
        load?.setPriority(priority)
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

    func dataLoad(didReceive chunk: Data, response: URLResponse?, requestTime: Double) {
        guard !isDisposed, !isNotModified, rejectedResponse == nil else { return }
        if !hasReceivedData {
            hasReceivedData = true
            self.requestTime = requestTime
            responseTime = Date().timeIntervalSince1970
            if let http = response as? HTTPURLResponse, http.statusCode == 304 {
                urlResponse = http
                isNotModified = true  // No body; the stored one is served when the load ends.
                return
            }
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                rejectedResponse = http  // A status the loader fails: its error follows, with no body.
                return
            }
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
            // Trust the announced length only so far: a hostile server can announce anything. A first chunk that
            // is the whole body is taken as it is (below), so nothing is reserved for it.
            let reservation = min(expectedLength, Int64(core.configuration.maximumResponseDataSize ?? (8 << 20)))
            if reservation > data.count, Int64(data.count + chunk.count) < expectedLength {
                data.reserveCapacity(Int(reservation))
                isReserved = true
            }
        }
        if let response { urlResponse = response }
        if let limit = core.configuration.maximumResponseDataSize, data.count + chunk.count > limit {
            return fail(.dataDownloadExceededMaximumSize)
        }
        if data.isEmpty, !isReserved {
            data = chunk  // The loader's buffer, without a copy (the whole body, or a start to grow from).
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
        if isNotModified, error == nil, let staleEntry {
            ticket?.release()
            return didRevalidate(staleEntry)
        }
        if let error {
            ticket?.release()
            if let staleEntry, servesStale(staleEntry.metadata, after: error) {
                return serveCached(staleEntry.body, metadata: staleEntry.metadata, isStale: true)
            }
            storeFailureIfNeeded(error)
            saveResumableData()
            send(error: .dataLoadingFailed(error: error))
            return
        }
        guard !data.isEmpty else {
            ticket?.release()
            send(error: .dataIsEmpty)
            return
        }
        var response = DataResponse(data: data, urlResponse: urlResponse, ticket: ticket)
        data = Data()
        // The metadata is only ever stored with the bytes: parsing the headers is skipped when no disk cache can be
        // written (none configured, and no delegate that could name one per request).
        if core.followsHTTPHeaders, core.mayStoreData, let http = urlResponse as? HTTPURLResponse {
            response.httpMetadata = HTTPCacheMetadata(
                response: http, requestTime: Date(timeIntervalSince1970: requestTime),
                responseTime: Date(timeIntervalSince1970: responseTime))
            response.httpMetadata?.recordVary(of: http, request: request.urlRequest)
        }
        storeInDataCacheIfNeeded(response.data, metadata: response.httpMetadata)
        // Counted after the store, so whoever sees the count can flush the cache and read the new entry.
        if staleEntry != nil {
            core.statistics.withLock { $0.refetches += 1 }
        }
        send(value: response, isCompleted: true)
    }

    /// A `304 Not Modified` confirmed the stale entry: serves its bytes and stores its updated metadata.
    private func didRevalidate(_ entry: (metadata: HTTPCacheMetadata, body: Data)) {
        var metadata = entry.metadata
        if let http = urlResponse as? HTTPURLResponse {
            metadata = metadata.updated(
                with: http, requestTime: Date(timeIntervalSince1970: requestTime),
                responseTime: Date(timeIntervalSince1970: responseTime))
        }
        // Rewritten only when the 304 changed what the next request decides; a `no-cache` entry, say, is asked for
        // every time anyway, and rewriting its body after each 304 would cost more than the bytes it saved.
        if metadata.needsStoring(replacing: entry.metadata) {
            storeInDataCacheIfNeeded(entry.body, metadata: metadata)
        }
        // Counted after the store, so whoever sees the count can flush the cache and read the updated entry.
        core.statistics.withLock { $0.revalidations += 1 }
        let ticket = core.decodingBacklog.take(entry.body.count)
        var response = DataResponse(data: entry.body, urlResponse: urlResponse, cacheType: .disk, ticket: ticket)
        response.httpMetadata = metadata
        send(value: response, isCompleted: true)
    }

    /// Whether a stale entry is served after its revalidation failed with `error`: for a network error or a
    /// status other than 4xx, within `stale-if-error`, or always with the offline option.
    private func servesStale(_ metadata: HTTPCacheMetadata, after error: any Error) -> Bool {
        if let status = (error as? any HTTPStatusCodeError)?.httpStatusCode, (400..<500).contains(status) {
            return false
        }
        return core.configuration.isServingStaleDataOnFailure || metadata.allowsStaleOnError(at: Date())
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

    /// Following HTTP headers, stores the error status the load failed with (RFC 9111's negative caching) when its
    /// response may be stored and is fresh: later requests fail with it, without loading, until it is stale. It is
    /// stored under the original's key whatever the ``ImagePipeline/DataCachePolicy``, since every variant fails
    /// with its original, and without the delegate's `willCache` (there are no image bytes). A stored error status
    /// that the new one doesn't replace is removed.
    private func storeFailureIfNeeded(_ error: any Error) {
        guard core.followsHTTPHeaders, let http = rejectedResponse,
            (error as? any HTTPStatusCodeError)?.httpStatusCode == http.statusCode, !request.isLocalResource,
            let cache = core.dataCache(for: request),
            publicRequests.contains(where: { !$0.options.contains(.disableDiskCacheWrites) })
        else { return }
        var metadata = HTTPCacheMetadata(
            response: http, requestTime: Date(timeIntervalSince1970: requestTime),
            responseTime: Date(timeIntervalSince1970: responseTime))
        metadata.recordVary(of: http, request: request.urlRequest)
        let key = core.makeDataCacheKey(for: request.withoutProcessing)
        if metadata.isStorable, !http.isVaryAll, metadata.decision(at: Date()) == .fresh {
            cache.storeData(HTTPCacheEntry.failure(metadata).encoded(), for: key)
        } else if hasFailureEntry {
            cache.removeData(for: key)
        }
    }

    /// Stores the original; with HTTP `metadata`, behind its header — or, for a response that must not be stored
    /// (`no-store`), removes what was stored before instead.
    private func storeInDataCacheIfNeeded(_ data: Data, metadata: HTTPCacheMetadata?) {
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
        let key = core.makeDataCacheKey(for: original)
        if let metadata, !metadata.isStorable || (urlResponse as? HTTPURLResponse)?.isVaryAll == true {
            if staleEntry != nil { cache.removeData(for: key) }
            return
        }
        core.storeData(data, image: nil, for: original, key: key, in: cache, metadata: metadata)
    }
}

extension HTTPURLResponse {
    /// `Vary: *`: the response can't be reused for another request.
    var isVaryAll: Bool {
        value(forHTTPHeaderField: "Vary")?.split(separator: ",").contains { $0.trimmingWhitespace == "*" } ?? false
    }
}
