import Foundation
import Nuke
import Testing

/// Code written for Nuke 13.2, the latest release, the way its documentation spells it: the spellings that Nuke's
/// main branch (Nuke 14) changed or removed compile here too (see Porting.md). Several are deprecated here, as
/// they are in Nuke, so this file's deprecation warnings are expected: Swift Testing refuses a deprecated `@Test`,
/// which would silence them.
///
/// A Nuke 13.2 delegate: declared with the old protocol name, and switching exhaustively over 13.2's four
/// `ImageTask.Event` cases.
final class Nuke13Delegate: ImagePipelineDelegate {
    /// The names of the events the delegate received, in order; finishes after `finished`.
    let received: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (received, continuation) = AsyncStream.makeStream()
    }

    func imageTask(_ task: ImageTask, didReceiveEvent event: ImageTask.Event, pipeline: ImagePipeline) {
        switch event {
        case .started:
            continuation.yield("started")
        case .progress(let progress):
            continuation.yield("progress \(progress.completed)")
        case .preview:
            continuation.yield("preview")
        case .finished(let result):
            continuation.yield((try? result.get()) == nil ? "failed" : "finished")
            continuation.finish()
        }
    }
}

@Suite struct Nuke13SpellingTests {
    @Test func delegateGetsStartedFirstAndEventsNeverYieldIt() async throws {
        // Given a pipeline with a delegate written for Nuke 13.2
        let backend = try AppBackend()
        let delegate = Nuke13Delegate()
        let pipeline = makeAppPipeline(delegate: delegate)
        pipeline.configuration.dataLoadingQueue.isSuspended = true  // Until the event stream exists.
        let task = pipeline.imageTask(with: backend.pngURL)

        // When the task runs, observed through its events with 13.2's exhaustive switch
        var streamed: [String] = []
        let events = task.events
        pipeline.configuration.dataLoadingQueue.isSuspended = false
        for await event in events {
            switch event {
            case .started: streamed.append("started")
            case .progress: streamed.append("progress")
            case .preview: streamed.append("preview")
            case .finished: streamed.append("finished")
            }
        }
        var delivered: [String] = []
        for await name in delegate.received { delivered.append(name) }

        // Then the delegate heard `started` once, before everything else, as Nuke 13.2 sends it; the stream never
        // yields it (neither did Nuke's)
        #expect(delivered.first == "started")
        #expect(delivered.filter { $0 == "started" }.count == 1)
        #expect(delivered.last == "finished")
        #expect(!streamed.contains("started"))
        #expect(streamed.last == "finished")
    }

    @Test func taskStateReadsAsInNuke13() async throws {
        // Given a finished task and a cancelled one
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        let finished = pipeline.imageTask(with: backend.pngURL)
        _ = try await finished.image
        let cancelled = pipeline.imageTask(with: backend.gatedURL)
        cancelled.cancel()

        // Then 13.2's `state` and `currentProgress` read as they did
        func name(_ state: ImageTask.State) -> String {
            switch state {
            case .running: "running"
            case .cancelled: "cancelled"
            case .completed: "completed"
            }
        }
        #expect(name(finished.state) == "completed")
        #expect(finished.currentProgress.completed == finished.currentProgress.total)
        #expect(name(cancelled.state) == "cancelled")
        #expect(cancelled.description.hasSuffix("state: cancelled)"))
        backend.gate.open()
    }

    @Test func requestSpellings() {
        // Given Nuke 13.2's request spellings
        let url = URL(string: "https://example.com/photo.jpg?token=1")
        let thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: Float(200))
        var request = ImageRequest(url: url, userInfo: [.thumbnailKey: thumbnail])

        // When the image id is set under its 13.2 name
        request.imageId = "https://example.com/photo.jpg"

        // Then they mean what the current names mean
        #expect(request.imageID == "https://example.com/photo.jpg")
        #expect(request.imageId == request.imageID)
        #expect(request.thumbnail == thumbnail)
        #expect(thumbnail == ImageRequest.ThumbnailOptions(maxPixelSize: 200))
        let size: Float = 120
        #expect(ImageRequest.ThumbnailOptions(maxPixelSize: size) == .init(maxPixelSize: CGFloat(120)))
    }

    @Test func removedDecodingLimitIsAcceptedAndChangesNothing() async throws {
        // Given a configuration and a decoding context that set 13.2's decoded-size limit
        let backend = try AppBackend()
        var configuration = ImagePipeline.Configuration()
        configuration.maximumDecodedImageSize = 16
        var context = ImageDecodingContext(request: ImageRequest(url: backend.pngURL), data: Data())
        context.maximumDecodedImageSize = 16
        let pipeline = makeAppPipeline { $0.maximumDecodedImageSize = 16 }

        // When an image larger than the limit loads
        let image = try await pipeline.image(for: backend.pngURL)

        // Then it is not downscaled (there is no automatic downscaling, as since Nuke 13.0.3); the values read back
        #expect(image.width == SampleImages.width)
        #expect(configuration.maximumDecodedImageSize == 16)
        #expect(context.maximumDecodedImageSize == 16)
        #expect(ImagePipeline.Configuration().maximumDecodedImageSize == nil)
    }
}
