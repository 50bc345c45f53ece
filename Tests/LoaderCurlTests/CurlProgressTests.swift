import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit
import Testing

/// Progress through a pipeline moves as a large body's bytes arrive, not once per megabyte.
@Suite struct CurlProgressTests {
    @Test func progressFollowsTheServersWrites() async throws {
        // Given a 3.6 MB body that the server writes 100 KB at a time (the loader's default receive buffer)
        let pieceSize = 100 * 1024
        let body = FixturePattern.bytes(in: 0..<(36 * pieceSize))
        let writes = (body.count + pieceSize - 1) / pieceSize
        let server = try LoopbackHTTPServer(routes: ["/large": .data(body, inWritesOf: pieceSize)])
        let pipeline = ImagePipeline {
            $0.dataLoader = CurlDataLoader()
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in MockImageDecoder() }
        }

        // When it's loaded through the pipeline
        let events = LockedValueBox<[ImageTask.Progress]>([])
        let result = await withCheckedContinuation { continuation in
            pipeline.loadImage(
                with: ImageRequest(url: server.url("/large")),
                progress: { _, completed, total in
                    events.withLock { $0.append(ImageTask.Progress(completed: completed, total: total)) }
                },
                completion: { continuation.resume(returning: $0) })
        }

        // Then it loaded, with about one progress event per write: the bytes that come before the response is
        // ready go out together (at most 1 MB), later ones every 64 KB, so each 100 KB write on its own. (Batched
        // per turn of the loader's loop, reads of up to 10 MB, it was 4 events.)
        _ = try result.get()
        let progress = events.snapshot
        let minimum = 1 + (body.count - (1 << 20) + pieceSize - 1) / pieceSize
        #expect(progress.count >= minimum, "\(progress.count) progress events for \(writes) writes")
        // Never backwards, and ending at the announced total
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        #expect(progress.allSatisfy { $0.total == Int64(body.count) })
        #expect(progress.last?.completed == Int64(body.count))
    }
}
