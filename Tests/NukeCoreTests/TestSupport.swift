import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

/// A pipeline with mocks, isolated from process-wide state.
struct PipelineFixture {
    let loader = MockDataLoader()
    let decodes = CallCounter()
    let processed = CallCounter()
    let imageCache: ImageCache?
    let pipeline: ImagePipeline

    init(
        imageCache: ImageCache? = ImageCache(),
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) {
        self.imageCache = imageCache
        let loader = self.loader
        let decodes = self.decodes
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = imageCache
            $0.makeImageDecoder = { _ in MockImageDecoder(counter: decodes) }
            configure(&$0)
        }
    }

    func processor(_ id: String) -> MockImageProcessor {
        MockImageProcessor(id: id, counter: processed)
    }

    /// Waits until the pipeline handled everything posted so far, then returns the live task counts.
    func liveTaskCounts() async -> [Int] {
        await pipeline.flush()
        let counts = await pipeline.core.liveTaskCounts
        return [counts.loadImage, counts.originalImage, counts.originalData, counts.active]
    }
}

extension ImagePipeline.Error {
    /// A short name of the case, for assertions.
    var caseName: String {
        switch self {
        case .dataMissingInCache: "dataMissingInCache"
        case .dataLoadingFailed: "dataLoadingFailed"
        case .dataIsEmpty: "dataIsEmpty"
        case .dataDownloadExceededMaximumSize: "dataDownloadExceededMaximumSize"
        case .decoderNotRegistered: "decoderNotRegistered"
        case .decodingFailed: "decodingFailed"
        case .processingFailed: "processingFailed"
        case .imageRequestMissing: "imageRequestMissing"
        case .pipelineInvalidated: "pipelineInvalidated"
        case .cancelled: "cancelled"
        }
    }
}

extension ImageTask {
    /// The task's result, without throwing.
    var result: Result<ImageResponse, ImagePipeline.Error> {
        get async {
            do {
                return .success(try await response)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The ids of the mock processors applied to the image, in order.
    var processorIDs: [String] {
        get async throws {
            try await response.container.userInfo[MockImageProcessor.processorIDsKey] as? [String] ?? []
        }
    }
}

extension Result {
    var error: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}

/// A value shared between a test and callbacks.
final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked: `storage` is only accessed under `lock`.
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) { storage = value }

    var value: Value {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }

    func mutate<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&storage) }
    }
}

/// A delegate that gives every image the same preview policy (the mock data is no progressive JPEG, so Nuke's
/// default policy would make no previews of it).
final class FixedPreviewPolicy: ImagePipeline.Delegate {
    let policy: ImagePipeline.PreviewPolicy

    init(_ policy: ImagePipeline.PreviewPolicy) { self.policy = policy }

    func previewPolicy(for context: ImageDecodingContext, pipeline: ImagePipeline) -> ImagePipeline.PreviewPolicy {
        policy
    }
}
