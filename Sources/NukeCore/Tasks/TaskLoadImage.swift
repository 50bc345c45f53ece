import Dispatch

/// Produces the final image of a request: from the memory cache, or by applying the request's last processor
/// to the image of the same request without it (so `[a]` and `[a, b]` share `a`), or, with no processors, from
/// the decoded original.
@ImagePipelineActor
final class TaskLoadImage: PipelineTask<ImageResponse> {
    private let core: PipelineCore
    private let request: ImageRequest

    init(core: PipelineCore, request: ImageRequest) {
        self.core = core
        self.request = request
    }

    override func start() {
        if let container = core.cachedImage(for: request) {
            let response = ImageResponse(container: container, request: request, cacheType: .memory)
            send(value: response, isCompleted: true)
            return
        }
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
        let request = self.request
        let mailbox = core.mailbox
        let token = CancellationToken()
        onCancelled = { token.cancel() }
        operation = core.configuration.imageProcessingQueue.add(priority: priority) { [weak self] operation in
            DispatchQueue.global(qos: .userInitiated).async {
                guard !token.isCancelled else { return operation.finish() }
                let result = Self.process(response, with: processor, request: request, isCompleted: isCompleted)
                operation.finish()
                mailbox.post {
                    switch result {
                    case let .success(response): self?.didProduce(response, isCompleted: isCompleted)
                    case let .failure(error): self?.send(error: error)
                    }
                }
            }
        }
    }

    private nonisolated static func process(
        _ response: ImageResponse,
        with processor: any ImageProcessing,
        request: ImageRequest,
        isCompleted: Bool
    ) -> Result<ImageResponse, ImagePipeline.Error> {
        let context = ImageProcessingContext(request: request, response: response, isCompleted: isCompleted)
        do {
            let container = try processor.process(response.container, context: context)
            // A cached intermediate image doesn't make the processed image a cache hit.
            let cacheType = response.cacheType == .memory ? nil : response.cacheType
            return .success(
                ImageResponse(
                    container: container, request: request, urlResponse: response.urlResponse, cacheType: cacheType))
        } catch {
            return .failure(.processingFailed(processor: processor, context: context, error: error))
        }
    }

    private func didProduce(_ response: ImageResponse, isCompleted: Bool) {
        if isCompleted, response.cacheType != .memory {
            core.storeImage(response.container, for: request)
        }
        send(value: response, isCompleted: isCompleted)
    }
}
