import Dispatch
import Foundation

/// Produces the final image of a request: from the memory cache, from an encoded image in the disk cache, or
/// by applying the request's last processor to the image of the same request without it (so `[a]` and
/// `[a, b]` share `a`); with no processors, from the decoded original. Stores what public tasks asked for in
/// the caches.
final class TaskLoadImage: PipelineTask<ImageResponse>, @unchecked Sendable {
    private let core: PipelineCore
    private let request: ImageRequest
    /// The key of ``request``'s result; its image key is shared by every stage below.
    private let key: LoadKey
    /// `true` when the encoded image in the disk cache is stale by its original's HTTP headers: the image made
    /// now replaces it, even if made from cached data.
    private var isReplacingStaleEntry = false

    init(core: PipelineCore, request: ImageRequest, key: LoadKey) {
        self.core = core
        self.request = request
        self.key = key
    }

    override func start() {
        if let response = core.cachedResponse(for: request) {
            guard response.container.isPreview else { return send(value: response, isCompleted: true) }
            send(value: response, isCompleted: false)  // A stored preview: show it and load the image.
        }
        // Encoded images are stored under their own key only when processing changes the image.
        guard request.isProcessed, let cache = core.readableDataCache(for: request)
        else {
            return fetchImage()
        }
        let key = core.makeDataCacheKey(for: request)
        operation = core.runOffGraph(on: core.configuration.dataCachingQueue, priority: priority) {
            cache.cachedData(for: key)
        } then: { [self] data, _ in
            self.didReadCache(data)
        }
    }

    private func didReadCache(_ data: Data?) {
        guard !isDisposed else { return }
        operation = nil
        let entry = data.map(HTTPCacheEntry.init(decoding:))
        guard let data = entry?.body, !data.isEmpty else { return fetchImage() }  // Damaged: a miss.
        // Following HTTP headers, an encoded image is used while the response of its original is fresh, and for
        // the variant it was made from (`Vary`); otherwise it is made again from the original, which is revalidated
        // (or loaded again) first.
        if core.followsHTTPHeaders, let metadata = entry?.metadata,
            !metadata.matchesVary(of: request.urlRequest)
                || (!request.options.contains(.returnCacheDataDontLoad) && !metadata.isFresh(at: Date()))
        {
            isReplacingStaleEntry = true
            return fetchImage()
        }
        core.statistics.withLock { $0.diskCacheHits += 1 }
        let context = {
            var context = ImageDecodingContext(request: request, data: data, isCompleted: true, cacheType: .disk)
            context.colorConverter = core.configuration.colorConverterForDecoding
            return context
        }()
        guard let decoder = core.decoder(for: context) else { return fetchImage() }
        let statistics = core.statistics
        let budget = core.decodingBacklog
        let queue = core.configuration.imageDecodingQueue
        let converter = core.configuration.colorConverterForDecoding
        let then: @Sendable (ImageResponse?, TaskQueue.Operation) -> Void = {
            [self] response, _ in
            self.didDecodeCachedData(response)
        }
        if let decoder = decoder as? any AsyncImageDecoding {
            operation = core.runOffGraphAsync(
                on: queue, priority: priority,
                {
                    statistics.withLock { $0.decodes += 1 }
                    return await decodeCachedData(context, with: decoder, converter: converter).map(budget.hold)
                }, then: then)
        } else {
            operation = core.runOffGraph(
                on: queue, priority: priority,
                {
                    statistics.withLock { $0.decodes += 1 }
                    return decodeCachedData(context, with: decoder, converter: converter).map(budget.hold)
                }, then: then)
        }
    }

    private func didDecodeCachedData(_ response: ImageResponse?) {
        guard !isDisposed else { return }
        operation = nil
        if let response {
            didProduce(response, isCompleted: true, isOwnDiskEntry: true)
        } else {
            fetchImage()  // Unreadable cached data: load it again.
        }
    }

    /// The task of the same request without its last processor. Its data key is this task's (the bytes are the
    /// same); its image key is made again, since dropping a resize may give the decode a thumbnail hint.
    private func makeTaskLoadImageWithoutLastProcessor() -> TaskLoadImage {
        let request = self.request.withoutLastProcessor
        let image = ImageKey(data: key.image.data, request: request)
        return core.makeTaskLoadImage(for: request, key: LoadKey(image: image, request: request))
    }

    private func fetchImage() {
        let dependency: PipelineTask<ImageResponse> =
            request.processors.isEmpty
            ? core.makeTaskFetchOriginalImage(for: request, key: key.image)
            : makeTaskLoadImageWithoutLastProcessor()
        subscribe(to: dependency) { [self] event in
            switch event {
            case let .value(response, isCompleted):
                didReceive(response, isCompleted: isCompleted)
            case let .progress(progress):
                send(progress: progress)
            case let .error(error):
                send(error: error)
            }
        }
    }

    private func didReceive(_ response: ImageResponse, isCompleted: Bool) {
        guard let processor = request.processors.last else {
            var response = response
            response.request = request
            didProduce(response, isCompleted: isCompleted)
            return
        }
        if isCompleted {
            previewOperation?.cancel()
            previewOperation = nil
        } else if previewOperation != nil || operation != nil {
            return  // Back-pressure: a preview is already being processed.
        }
        let request = self.request
        let statistics = core.statistics
        let budget = core.decodingBacklog
        let operation = core.runOffGraph(on: core.configuration.imageProcessingQueue, priority: priority) {
            guard isCompleted else {
                return process(response, with: processor, request: request, isCompleted: false)
            }
            statistics.withLock { $0.processes += 1 }
            // The output is held until the app receives it; the input's hold ends with this closure.
            return process(response, with: processor, request: request, isCompleted: true).map {
                var output = $0
                output.backlogTicket = budget.take(for: output.container)
                return output
            }
        } then: { [self] result, operation in
            self.didProcess(result, isCompleted: isCompleted, operation: operation)
        }
        if isCompleted {
            self.operation = operation
        } else {
            previewOperation = operation
        }
    }

    private func didProcess(
        _ result: Result<ImageResponse, ImagePipeline.Error>,
        isCompleted: Bool,
        operation: TaskQueue.Operation
    ) {
        guard !isDisposed else { return }
        if !isCompleted {
            guard previewOperation === operation else { return }  // Superseded by the final image.
            previewOperation = nil
        }
        switch result {
        case let .success(response):
            didProduce(response, isCompleted: isCompleted)
        case let .failure(error):
            if isCompleted { send(error: error) }  // A preview that fails to process is skipped.
        }
    }

    /// Sends an image this task made (decoded, processed, or read from its own disk cache entry when
    /// `isOwnDiskEntry`), storing it in the caches a task that asked for it should fill.
    private func didProduce(_ response: ImageResponse, isCompleted: Bool, isOwnDiskEntry: Bool = false) {
        if hasDirectSubscriber {
            core.storeInMemoryCache(response.container, for: request, isCompleted: isCompleted)
            if isCompleted, !isOwnDiskEntry { storeEncodedImageIfNeeded(response) }
        }
        send(value: response, isCompleted: isCompleted)
    }

    /// Encodes and stores the image in the disk cache when the policy asks for encoded images.
    private func storeEncodedImageIfNeeded(_ response: ImageResponse) {
        // Data read from the disk cache is already there; a local resource's processed images are stored
        // (as in Nuke), its unprocessed image never is.
        guard response.cacheType != .disk || isReplacingStaleEntry, !response.container.isPreview,
            !request.isLocalResource || request.isProcessed,
            !request.options.contains(.disableDiskCacheWrites),
            let cache = core.dataCache(for: request)
        else { return }
        switch core.configuration.dataCachePolicy {
        case .automatic, .storeAll:
            guard request.isProcessed else { return }
        case .storeEncodedImages:
            break
        case .storeOriginalData:
            return
        }
        let context = ImageEncodingContext(
            request: request, image: response.image, urlResponse: response.urlResponse)
        let encoder = core.encoder(for: context)
        guard !(encoder is NoImageEncoder) else { return }
        let key = core.makeDataCacheKey(for: request)
        let container = response.container
        // Made from an original that follows HTTP headers: stored with the original's metadata, unless it must
        // not be stored.
        let metadata = core.followsHTTPHeaders ? response.httpMetadata : nil
        if let metadata, !metadata.isStorable { return }
        let encodes = core.pendingEncodes
        let core = self.core
        let request = self.request
        encodes.begin()
        core.runOffGraph(
            on: core.configuration.imageEncodingQueue, priority: priority, qos: .utility,
            {
                if let data = encoder.encode(container, context: context), !data.isEmpty {
                    core.storeData(
                        data, image: container, for: request, key: key, in: cache, metadata: metadata, isDerived: true)
                }
                encodes.end()
            }, then: nil)
    }
}

/// Applies one processor off the graph.
private func process(
    _ response: ImageResponse,
    with processor: any ImageProcessing,
    request: ImageRequest,
    isCompleted: Bool
) -> Result<ImageResponse, ImagePipeline.Error> {
    let context = ImageProcessingContext(request: request, response: response, isCompleted: isCompleted)
    do {
        var container = try processor.process(response.container, context: context)
        container.isPreview = !isCompleted
        if container.image.colorProfile == nil {
            // Processors make new images; the pixels stay in the colour space they came in (sRGB unless the
            // pipeline keeps profiles), so the profile carries over.
            container.image.colorProfile = response.container.image.colorProfile
        }
        // An image made from a cached one reports that cache (Nuke's behaviour): `.memory` when the original or
        // an intermediate image came from the memory cache.
        var output = ImageResponse(
            container: container, request: request, urlResponse: response.urlResponse, cacheType: response.cacheType)
        output.isStale = response.isStale
        output.httpMetadata = response.httpMetadata
        return .success(output)
    } catch {
        return .failure(.processingFailed(processor: processor, context: context, error: error))
    }
}
