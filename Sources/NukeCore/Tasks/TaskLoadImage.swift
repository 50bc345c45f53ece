import Dispatch
import Foundation

/// Produces the final image of a request: from the memory cache, from an encoded image in the disk cache, or
/// by applying the request's last processor to the image of the same request without it (so `[a]` and
/// `[a, b]` share `a`); with no processors, from the decoded original. Stores what public tasks asked for in
/// the caches.
@ImagePipelineActor
final class TaskLoadImage: PipelineTask<ImageResponse> {
    private let core: PipelineCore
    private let request: ImageRequest
    private var previewOperation: TaskQueue.Operation?

    init(core: PipelineCore, request: ImageRequest) {
        self.core = core
        self.request = request
    }

    override func didChangePriority(_ priority: ImageRequest.Priority) {
        previewOperation?.priority = priority
    }

    override func didDispose() {
        previewOperation?.cancel()
        previewOperation = nil
    }

    override func start() {
        if let container = core.cachedImage(for: request) {
            send(value: ImageResponse(container: container, request: request, cacheType: .memory), isCompleted: true)
            return
        }
        // Encoded images are stored under their own key only when processing changes the image.
        guard request.isProcessed, let cache = core.readableDataCache(for: request)
        else {
            return fetchImage()
        }
        let key = core.makeDataCacheKey(for: request)
        let mailbox = core.mailbox
        operation = core.configuration.dataCachingQueue.add(priority: priority) { [weak self] operation in
            DispatchQueue.global(qos: .userInitiated).async {
                let data = operation.isCancelled ? nil : cache.cachedData(for: key)
                operation.finish()
                mailbox.post { self?.didReadCache(data) }
            }
        }
    }

    private func didReadCache(_ data: Data?) {
        guard !isDisposed else { return }
        operation = nil
        guard let data, !data.isEmpty else { return fetchImage() }
        let context = ImageDecodingContext(request: request, data: data, isCompleted: true, cacheType: .disk)
        guard let decoder = core.decoder(for: context) else { return fetchImage() }
        let mailbox = core.mailbox
        operation = core.configuration.imageDecodingQueue.add(priority: priority) { [weak self] operation in
            DispatchQueue.global(qos: .userInitiated).async {
                guard !operation.isCancelled else { return }
                let response = decodeCachedData(context, with: decoder)
                operation.finish()
                mailbox.post { self?.didDecodeCachedData(response) }
            }
        }
    }

    private func didDecodeCachedData(_ response: ImageResponse?) {
        guard !isDisposed else { return }
        operation = nil
        if let response {
            didProduce(response, isCompleted: true)
        } else {
            fetchImage()  // Unreadable cached data: load it again.
        }
    }

    private func fetchImage() {
        let dependency: PipelineTask<ImageResponse> =
            request.processors.isEmpty
            ? core.makeTaskFetchOriginalImage(for: request)
            : core.makeTaskLoadImage(for: request.withoutLastProcessor)
        subscribe(to: dependency) { [weak self] event in
            guard let self else { return }
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
        let mailbox = core.mailbox
        let operation = core.configuration.imageProcessingQueue.add(priority: priority) { [weak self] operation in
            DispatchQueue.global(qos: .userInitiated).async {
                guard !operation.isCancelled else { return }
                let result = process(response, with: processor, request: request, isCompleted: isCompleted)
                operation.finish()
                mailbox.post { self?.didProcess(result, isCompleted: isCompleted, operation: operation) }
            }
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

    private func didProduce(_ response: ImageResponse, isCompleted: Bool) {
        if isCompleted, hasDirectSubscriber, response.cacheType != .memory {
            core.storeImage(response.container, for: request)
            storeEncodedImageIfNeeded(response)
        }
        send(value: response, isCompleted: isCompleted)
    }

    /// Encodes and stores the image in the disk cache when the policy asks for encoded images.
    private func storeEncodedImageIfNeeded(_ response: ImageResponse) {
        guard response.cacheType == nil, !response.container.isPreview, !request.isLocalResource,
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
        guard let encoder = core.encoder(for: context) else { return }
        let key = core.makeDataCacheKey(for: request)
        let container = response.container
        let encodes = core.pendingEncodes
        encodes.begin()
        core.configuration.imageEncodingQueue.add(priority: priority) { operation in
            DispatchQueue.global(qos: .utility).async {
                if let data = encoder.encode(container, context: context), !data.isEmpty {
                    cache.storeData(data, for: key)
                }
                operation.finish()
                encodes.end()
            }
        }
    }
}

/// Applies one processor off the actor.
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
        // A cached intermediate image doesn't make the processed image a memory cache hit.
        let cacheType = response.cacheType == .memory ? nil : response.cacheType
        return .success(
            ImageResponse(
                container: container, request: request, urlResponse: response.urlResponse, cacheType: cacheType))
    } catch {
        return .failure(.processingFailed(processor: processor, context: context, error: error))
    }
}
