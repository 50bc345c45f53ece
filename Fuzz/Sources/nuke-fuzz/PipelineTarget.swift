import DecoderJPEG
import DecoderPNG
import DecoderSVG
import DecoderWebP
import Dispatch
import Foundation
import NukeCore
import NukeTestKit

/// The pipeline end to end: a loader serves the input in three chunks (so progressive previews and the EXIF
/// thumbnail scan see partial data), the registered decoders decode it (with a small pixel limit), and a chain of
/// processors runs on the result. The input's last byte chooses the processors and the thumbnail option, so real
/// images are still seeds. A load either produces an image or fails with an error; it always completes.
enum PipelineTarget {
    nonisolated(unsafe) private static var pipeline: ImagePipeline?
    nonisolated(unsafe) private static var loader = MockDataLoader()
    private static let url = URL(string: "https://example.com/fuzz")!

    static func setUp() {
        let registry = ImageDecoderRegistry()
        let limit = DecoderTargets.maximumPixelCount
        ImageDecoders.PNG.register(in: registry, configuration: .init(maximumPixelCount: limit))
        ImageDecoders.JPEG.register(in: registry, configuration: .init(maximumPixelCount: limit))
        ImageDecoders.WebP.register(in: registry, configuration: .init(maximumPixelCount: limit))
        ImageDecoders.SVG.register(in: registry, configuration: .init(maximumPixelCount: limit))
        loader.chunkCount = 3
        var configuration = ImagePipeline.Configuration(dataLoader: loader, imageCache: nil)
        configuration.makeImageDecoder = { registry.decoder(for: $0) }
        configuration.isProgressiveDecodingEnabled = true
        configuration.progressiveDecodingInterval = 0
        configuration.isTaskCoalescingEnabled = false
        configuration.isResumableDataEnabled = false
        pipeline = ImagePipeline(configuration: configuration)
    }

    static func run(_ data: Data) {
        guard let pipeline else { return }
        let choice = data.last ?? 0
        var processors: [any ImageProcessing] = []
        if choice & 1 != 0 { processors.append(.resize(width: 48)) }
        if choice & 2 != 0 { processors.append(.crop(rect: CGRect(x: 2, y: 2, width: 40, height: 30))) }
        if choice & 4 != 0 { processors.append(.roundedCorners(radius: 6)) }
        if choice & 8 != 0 { processors.append(.gaussianBlur(radius: 2)) }
        if choice & 16 != 0 { processors.append(.circle()) }
        if choice & 32 != 0 { processors.append(.grayscale()) }
        var request = ImageRequest(url: url, processors: processors)
        if choice & 64 != 0 { request.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 32) }
        loader.setResponse(for: url, data: data)
        loader.removeRecordedRequests()  // Millions of runs: the loader must not keep every request.

        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let image = try await pipeline.image(for: request)
                precondition(image.width * image.height <= DecoderTargets.maximumPixelCount, "image over the limit")
            } catch {
                // Bad input fails the request with a typed error: the expected outcome.
            }
            done.signal()
        }
        // A load that never completes is a hang: libFuzzer's -timeout reports it.
        done.wait()
    }
}
