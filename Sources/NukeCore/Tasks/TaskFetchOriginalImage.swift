import Dispatch
import Foundation

/// Decodes the original image: waits for the data task, then decodes on the decoding queue.
@ImagePipelineActor
final class TaskFetchOriginalImage: PipelineTask<ImageResponse> {
    private let core: PipelineCore
    private let request: ImageRequest

    init(core: PipelineCore, request: ImageRequest) {
        self.core = core
        self.request = request
    }

    override func start() {
        subscribe(to: core.makeTaskFetchOriginalData(for: request)) { [weak self] event in
            guard let self else { return }
            switch event {
            case let .value(response, isCompleted):
                if isCompleted { decode(response) }
            case let .progress(progress):
                send(progress: progress)
            case let .error(error):
                send(error: error)
            }
        }
    }

    private func decode(_ response: DataResponse) {
        let context = ImageDecodingContext(
            request: request, data: response.data, isCompleted: true, urlResponse: response.urlResponse)
        let makeDecoder = core.configuration.makeImageDecoder
        let mailbox = core.mailbox
        let request = self.request
        let token = CancellationToken()
        onCancelled = { token.cancel() }
        operation = core.configuration.imageDecodingQueue.add(priority: priority) { [weak self] operation in
            DispatchQueue.global(qos: .userInitiated).async {
                guard !token.isCancelled else { return operation.finish() }
                let result = Self.decode(context: context, request: request, makeDecoder: makeDecoder)
                operation.finish()
                mailbox.post { self?.didDecode(result) }
            }
        }
    }

    private nonisolated static func decode(
        context: ImageDecodingContext,
        request: ImageRequest,
        makeDecoder: @Sendable (ImageDecodingContext) -> (any ImageDecoding)?
    ) -> Result<ImageResponse, ImagePipeline.Error> {
        guard let decoder = makeDecoder(context) else {
            return .failure(.decoderNotRegistered(context: context))
        }
        do {
            var container = try decoder.decode(context.data)
            if let scale = request.scale, scale > 0, container.image.scale == 1 {
                container.image.scale = Double(scale)
            }
            if container.type == nil {
                container.type = context.type
            }
            return .success(ImageResponse(container: container, request: request, urlResponse: context.urlResponse))
        } catch {
            return .failure(.decodingFailed(decoder: decoder, context: context, error: error))
        }
    }

    private func didDecode(_ result: Result<ImageResponse, ImagePipeline.Error>) {
        switch result {
        case let .success(response): send(value: response, isCompleted: true)
        case let .failure(error): send(error: error)
        }
    }
}
