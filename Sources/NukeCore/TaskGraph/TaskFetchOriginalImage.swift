import Dispatch
import Foundation

/// Decodes the original image: waits for the data task, then decodes on the decoding queue. With progressive
/// decoding on, partial data is decoded into previews — throttled, and dropped while a decode is running.
final class TaskFetchOriginalImage: PipelineTask<ImageResponse>, @unchecked Sendable {
    private let core: PipelineCore
    private let request: ImageRequest
    /// The key of ``request``'s decode; its data key is the shared data task's.
    private let key: ImageKey
    private var decoder: (any ImageDecoding)?
    private var lastPreviewTime: Double?
    private var isRetryingWithoutDiskCache = false
    /// Set once the embedded thumbnail was shown (policy `.thumbnail`): no more previews.
    private var isThumbnailPreviewDone = false
    /// The downloaded bytes this task holds for its decode, counted against the decoding backlog.
    private var backlogTicket: ByteBudget.Ticket?

    init(core: PipelineCore, request: ImageRequest, key: ImageKey) {
        self.core = core
        self.request = request
        self.key = key
    }

    override func didDispose() {
        backlogTicket?.release()  // The decode may never run (cancelled while queued).
        backlogTicket = nil
    }

    override func start() {
        if case let .imageClosure(_, image) = request.resource {
            return runImageClosure(image)
        }
        fetchData(for: request)
    }

    /// Gets the image from a request's image closure (``ImageRequest/init(id:image:processors:priority:options:userInfo:)``)
    /// on the decoding queue, in place of loading and decoding.
    private func runImageClosure(_ image: @escaping @Sendable () async throws -> ImageContainer) {
        let request = self.request
        let running = LockedValueBox<Task<Void, Never>?>(nil)
        onCancelled = { running.withLock { $0?.cancel() } }  // Cancels the app's closure too.
        operation = core.runOffGraphAsync(
            on: core.configuration.imageDecodingQueue, priority: priority, running: running
        ) {
            do {
                return Result<ImageResponse, ImagePipeline.Error>.success(
                    ImageResponse(container: try await image(), request: request))
            } catch {
                return .failure(.dataLoadingFailed(error: error))
            }
        } then: { [self] result, _ in
            self.didDecodeFinal(result, cacheType: nil)
        }
    }

    /// Subscribes to the data task of `request`: the shared one, or (for the reload after damaged cached data)
    /// one of its own, so it can't join a task that already read the damaged bytes.
    private func fetchData(for request: ImageRequest, isShared: Bool = true) {
        let dependency =
            isShared
            ? core.makeTaskFetchOriginalData(for: request, key: key.data)
            : TaskFetchOriginalData(core: core, request: request)
        subscribe(to: dependency) { [self] event in
            switch event {
            case let .value(response, isCompleted):
                if isCompleted {
                    decodeFinal(response)
                } else {
                    decodePreview(response)
                }
            case let .progress(progress):
                send(progress: progress)
            case let .error(error):
                send(error: error)
            }
        }
    }

    /// The decoder for this image, created once and reused for previews and the final decode.
    private func decoder(for context: ImageDecodingContext) -> (any ImageDecoding)? {
        if let decoder { return decoder }
        decoder = core.decoder(for: context)
        return decoder
    }

    private func decodeFinal(_ response: DataResponse) {
        previewOperation?.cancel()
        previewOperation = nil
        let context = {
            var context = ImageDecodingContext(
                request: request, data: response.data, isCompleted: true, urlResponse: response.urlResponse,
                cacheType: response.cacheType)
            context.colorConverter = self.core.configuration.colorConverterForDecoding
            return context
        }()
        guard let decoder = decoder(for: context) else {
            var context = context
            context.decoderLookup = core.decoderLookup
            send(error: .decoderNotRegistered(context: context))
            return
        }
        let core = self.core
        let ticket = response.ticket ?? core.decodingBacklog.take(response.data.count)
        backlogTicket = ticket  // Released when the decode ends, or by `didDispose` if it never runs.
        let (isStale, httpMetadata) = (response.isStale, response.httpMetadata)
        let converter = core.configuration.colorConverterForDecoding
        let decoded:
            @Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Result<ImageResponse, ImagePipeline.Error> = {
                core.statistics.withLock { $0.decodes += 1 }
                let result = $0.map { response in
                    var response = core.decompressIfNeeded(response)
                    response.isStale = isStale
                    response.httpMetadata = httpMetadata
                    // The image is held from now until the app receives it; taken before the data's bytes are
                    // given back, so the budget never misses either.
                    response.backlogTicket = core.decodingBacklog.take(for: response.container)
                    return response
                }
                ticket.release()
                return result
            }
        let then: @Sendable (Result<ImageResponse, ImagePipeline.Error>, TaskQueue.Operation) -> Void = {
            [self] result, _ in self.didDecodeFinal(result, cacheType: context.cacheType)
        }
        let queue = core.configuration.imageDecodingQueue
        if let decoder = decoder as? any AsyncImageDecoding {
            operation = core.runOffGraphAsync(
                on: queue, priority: priority, { decoded(await decode(context, with: decoder, converter: converter)) },
                then: then)
        } else {
            operation = core.runOffGraph(
                on: queue, priority: priority, { decoded(decode(context, with: decoder, converter: converter)) },
                then: then)
        }
    }

    private func didDecodeFinal(
        _ result: Result<ImageResponse, ImagePipeline.Error>, cacheType: ImageResponse.CacheType?
    ) {
        switch result {
        case let .success(response):
            send(value: response, isCompleted: true)
        case let .failure(error):
            guard cacheType == .disk, !isRetryingWithoutDiskCache else {
                return send(error: error)
            }
            // Data from the disk cache that doesn't decode is damaged (or from another version): drop it and
            // load the image again rather than fail.
            isRetryingWithoutDiskCache = true
            operation = nil
            decoder = nil
            // Removed before the reload stores fresh data.
            core.dataCache(for: request)?.removeData(for: core.makeDataCacheKey(for: request.withoutProcessing))
            var retry = request
            retry.options.insert(.disableDiskCacheReads)
            fetchData(for: retry, isShared: false)
        }
    }

    private func decodePreview(_ response: DataResponse) {
        guard core.configuration.isProgressiveDecodingEnabled, !isThumbnailPreviewDone, previewOperation == nil,
            operation == nil
        else {
            return  // Back-pressure: a decode is already running.
        }
        let now = RateLimiter.monotonicSeconds()
        if let lastPreviewTime, now - lastPreviewTime < core.configuration.progressiveDecodingInterval {
            return
        }
        var context = ImageDecodingContext(
            request: request, data: response.data, isCompleted: false, urlResponse: response.urlResponse)
        context.previewPolicy = core.previewPolicy(for: context)
        let preview: @Sendable () -> ImageContainer?
        switch context.previewPolicy {
        case .disabled:
            return
        case .thumbnail:
            let thumbnail: Data
            switch JPEGScan.exifThumbnail(context.data) {
            case .pending: return  // Not arrived yet.
            case .absent:
                isThumbnailPreviewDone = true
                return
            case let .found(data): thumbnail = data
            }
            isThumbnailPreviewDone = true
            let thumbnailContext = ImageDecodingContext(request: request, data: thumbnail)
            guard let decoder = core.decoder(for: thumbnailContext) else { return }
            preview = { try? decoder.decode(thumbnail) }
        case .incremental:
            guard let decoder = decoder(for: context) else { return }  // Maybe later, with more data.
            let data = context.data
            preview = { decoder.decodePartiallyDownloadedData(data) }
        }
        lastPreviewTime = now  // Throttle attempts, not only successes: a decoder may yield nothing.
        let request = self.request
        let converter = core.configuration.colorConverterForDecoding
        previewOperation = core.runOffGraph(on: core.configuration.imageDecodingQueue, priority: priority) {
            var container = preview()
            container?.isPreview = true
            if let converter, container?.image.colorProfile != nil {
                convertToSRGB(&container!.image, with: converter)  // Previews match the final image.
            }
            return container
        } then: { [self] container, operation in
            self.didDecodePreview(container, request: request, operation: operation)
        }
    }

    private func didDecodePreview(_ container: ImageContainer?, request: ImageRequest, operation: TaskQueue.Operation) {
        guard previewOperation === operation, !isDisposed else { return }  // Superseded by the final decode.
        previewOperation = nil
        guard let container else { return }
        send(value: ImageResponse(container: container, request: request), isCompleted: false)
    }
}

/// Decodes complete data, applying the request's scale and thumbnail, and converting to sRGB with `converter`.
private func decode(
    _ context: ImageDecodingContext,
    with decoder: any ImageDecoding,
    converter: (any ColorConverting)?
) -> Result<ImageResponse, ImagePipeline.Error> {
    do {
        return .success(try makeResponse(try decoder.decode(context.data), context: context, converter: converter))
    } catch {
        return .failure(.decodingFailed(decoder: decoder, context: context, error: error))
    }
}

/// Decodes complete data with an asynchronous decoder.
private func decode(
    _ context: ImageDecodingContext,
    with decoder: any AsyncImageDecoding,
    converter: (any ColorConverting)?
) async -> Result<ImageResponse, ImagePipeline.Error> {
    do {
        return .success(
            try makeResponse(try await decoder.decode(context.data), context: context, converter: converter))
    } catch {
        return .failure(.decodingFailed(decoder: decoder, context: context, error: error))
    }
}

/// The response of a decoded image: the request's scale applied, thumbnail options enforced, the pixels converted
/// to sRGB (after the thumbnail, so fewer pixels go through the transform, as libvips' thumbnail does), the type
/// filled in.
private func makeResponse(
    _ decoded: consuming ImageContainer, context: ImageDecodingContext, converter: (any ColorConverting)?
) throws -> ImageResponse {
    var container = decoded  // The decoder's only reference to the pixels: converted in place below.
    if let scale = context.request.scale, scale > 0, container.image.scale == 1 {
        container.image.scale = Double(scale)
    }
    if let thumbnail = context.request.thumbnail {
        // Codecs that scale while decoding get close (JPEG's DCT scaling) or exact (WebP, SVG); the rest
        // decode the full image. Either way the thumbnail ends up exactly the size the options ask for.
        let profile = container.image.colorProfile
        container.image = try thumbnail.makeThumbnail(from: container.image, scale: context.request.scale)
        container.image.colorProfile = profile  // Same pixels' colour space, fewer pixels.
    }
    if let converter, container.image.colorProfile != nil {
        convertToSRGB(&container.image, with: converter)
    }
    if container.type == nil {
        container.type = context.type
    }
    return ImageResponse(
        container: container, request: context.request, urlResponse: context.urlResponse,
        cacheType: context.cacheType)
}

/// Converts `image` to sRGB in place; when the converter can't use its profile (damaged, or a colour space it
/// doesn't handle), keeps the decoded pixels without the profile, treated as sRGB from here on.
func convertToSRGB(_ image: inout PlatformImage, with converter: any ColorConverting) {
    try? converter.convertToSRGB(&image)
    image.colorProfile = nil
}

/// Decodes data from the disk cache with an asynchronous decoder; `nil` when decoding fails.
func decodeCachedData(
    _ context: ImageDecodingContext,
    with decoder: any AsyncImageDecoding,
    converter: (any ColorConverting)?
) async -> ImageResponse? {
    try? await decode(context, with: decoder, converter: converter).get()
}

/// Decodes data from the disk cache off the graph; `nil` when there's no decoder or decoding fails.
func decodeCachedData(
    _ context: ImageDecodingContext,
    with decoder: any ImageDecoding,
    converter: (any ColorConverting)?
) -> ImageResponse? {
    try? decode(context, with: decoder, converter: converter).get()
}
