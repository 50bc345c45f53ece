import Foundation
import Nuke
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The completion-based API: `loadImage(with:completion:)`, `loadImage(with:progress:completion:)`, `loadData`.
@Suite struct ClosureAPITests {
    @Test func loadImageWithURLCallsCompletionOnce() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()

        // When
        let result = await withCheckedContinuation { continuation in
            pipeline.loadImage(with: backend.pngURL) { result in continuation.resume(returning: result) }
        }

        // Then
        let response = try result.get()
        #expect(response.image.width == SampleImages.width)
        #expect(response.cacheType == nil)
    }

    @Test func loadImageWithProgressReportsBytes() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()
        let totals = LockedValueBox<[Int64]>([])
        let request = ImageRequest(url: backend.jpegURL, processors: [.resize(width: 16)])

        // When
        let result = await withCheckedContinuation { continuation in
            pipeline.loadImage(
                with: request,
                progress: { _, completed, total in totals.withLock { $0.append(completed == total ? total : -1) } },
                completion: { result in continuation.resume(returning: result) })
        }

        // Then
        let image = try result.get().image
        #expect(image.width == 16)
        #expect(totals.snapshot.last == Int64(try SampleImages.jpeg().count))
    }

    @Test func loadImageFailureAndCancellation() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()

        // When
        let failure = await withCheckedContinuation { continuation in
            pipeline.loadImage(with: ImageRequest(url: backend.missingURL), progress: nil) {
                continuation.resume(returning: $0)
            }
        }
        let cancelled = await withCheckedContinuation { continuation in
            let task = pipeline.loadImage(with: backend.gatedURL) { continuation.resume(returning: $0) }
            task.cancel()
        }

        // Then
        guard case .failure(.dataLoadingFailed) = failure else {
            Issue.record("expected dataLoadingFailed, got \(failure)")
            return
        }
        guard case .failure(.cancelled) = cancelled else {
            Issue.record("expected cancelled, got \(cancelled)")
            return
        }
    }

    @Test func loadDataReturnsOriginalBytes() async throws {
        // Given
        let backend = try AppBackend()
        let pipeline = makeAppPipeline()

        // When
        let result = await withCheckedContinuation { continuation in
            pipeline.loadData(with: ImageRequest(url: backend.pngURL)) { continuation.resume(returning: $0) }
        }

        // Then
        let (data, response) = try result.get()
        #expect(data == (try SampleImages.png()))
        #expect(response?.url == backend.pngURL)
    }
}
