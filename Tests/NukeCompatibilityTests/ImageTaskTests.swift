import Foundation
import Nuke
import NukeTestKit
import Testing

/// `ImageTask`: its result, its async sequences, its state and its cancellation.
@Suite struct ImageTaskTests {
    @Test func taskDeliversImageAndResponse() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        let task = pipeline.imageTask(with: backend.pngURL)
        let requestTask = pipeline.imageTask(with: ImageRequest(url: backend.pngURL, priority: .high))

        // When
        let image = try await task.image
        let response = try await requestTask.response

        // Then
        #expect(image.width == SampleImages.width)
        #expect(response.image == image && response.request.url == backend.pngURL)
        #expect(task.state == .completed && !task.isCancelled)
        #expect(![ImageTask.State.running, .cancelled].contains(task.state))
        #expect(task.request.url == backend.pngURL)
        #expect(requestTask.priority == .high)
        #expect(task.id == ObjectIdentifier(task) && task != requestTask && task.taskId != requestTask.taskId)
        #expect(Set([task, requestTask, task]).count == 2)
        #expect(!task.description.isEmpty)
        if case .success(let result)? = task.status.result {
            #expect(result.image == image)
        } else {
            Issue.record("status.result should hold the response")
        }
        #expect(task.currentProgress.completed == task.currentProgress.total)
        #expect(task.currentProgress.fraction == 1)
    }

    @Test func eventsReportProgressThenFinish() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        // Held until the stream exists: a loopback download can otherwise end before the stream is made, which
        // then replays only the `finished` event.
        pipeline.configuration.dataLoadingQueue.isSuspended = true
        let task = pipeline.imageTask(with: backend.pngURL)

        // When
        var progress: [ImageTask.Progress] = []
        var finished: Result<ImageResponse, ImagePipeline.Error>?
        let events = task.events
        pipeline.configuration.dataLoadingQueue.isSuspended = false
        for await event in events {
            switch event {
            case .started: break
            case .progress(let value): progress.append(value)
            case .preview: break
            case .finished(let result): finished = result
            }
        }

        // Then
        let data = try SampleImages.png()
        #expect(progress.last == ImageTask.Progress(completed: Int64(data.count), total: Int64(data.count)))
        #expect(try finished?.get().image.height == SampleImages.height)
    }

    @Test func progressAndPreviewsSequencesEnd() async throws {
        // Given a progressive-decoding pipeline
        let backend = try AppBackend()
        let pipeline = makeAppPipeline { $0.isProgressiveDecodingEnabled = true }
        pipeline.configuration.dataLoadingQueue.isSuspended = true  // Until the sequences exist (see above).
        let task = pipeline.imageTask(with: backend.jpegURL)

        // When
        let previewSequence = task.previews
        let progressSequence = task.progress
        pipeline.configuration.dataLoadingQueue.isSuspended = false
        async let previews: [ImageResponse] = {
            var all: [ImageResponse] = []
            for await preview in previewSequence { all.append(preview) }
            return all
        }()
        var fractions: [Float] = []
        for await progress in progressSequence { fractions.append(progress.fraction) }
        let image = try await task.image

        // Then (a small, fully received JPEG may have no preview; every preview is marked as one)
        #expect(fractions.last == 1)
        #expect(await previews.allSatisfy(\.isPreview))
        #expect(image.width == SampleImages.width)
    }

    @Test func cancellingATaskFailsItWithCancelled() async throws {
        // Given a task waiting for the gated image
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        let task = pipeline.imageTask(with: backend.gatedURL)
        let outcome = Task { () -> Result<ImageResponse, ImagePipeline.Error> in
            do throws(ImagePipeline.Error) { return .success(try await task.response) } catch { return .failure(error) }
        }
        try await backend.server.waitForRequests(count: 1)

        // When
        task.priority = .low
        task.cancel()

        // Then
        guard case .failure(.cancelled) = await outcome.value else {
            Issue.record("expected cancellation")
            return
        }
        #expect(task.isCancelled && task.state == .cancelled && task.status.isCancelled)
        #expect(task.status.priority == .low)
        _ = ImageTask.Status()
        backend.gate.open()
    }
}
