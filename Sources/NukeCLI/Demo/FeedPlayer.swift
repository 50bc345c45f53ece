import Foundation
import Nuke

/// Plays the scroll session over the feed, frame by frame (60 per second of wall time): cells entering the
/// viewport request their thumbnails at high priority, cells leaving it before their image arrived cancel
/// their tasks, and a ``PrefetchWindow`` one viewport ahead of the scroll feeds an ``ImagePrefetcher``.
struct FeedPlayer {
    let layout: FeedLayout
    let script: ScrollScript
    let pipeline: ImagePipeline
    let recorder = FeedRecorder()

    /// Plays the session, then waits (at most `settleTimeout` seconds) for the cells left on screen.
    func play(progress: (Double) -> Void, settleTimeout: Double = 20) async {
        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .memoryCache, maxConcurrentRequestCount: 4)
        let window = PrefetchWindow(axis: .vertical) { [layout] rect in layout.items(in: rect) }
        var visible: [Int: ImageTask] = [:]
        var completions: [Task<Void, Never>] = []
        let start = monotonicSeconds()
        let duration = script.duration
        while true {
            let elapsed = monotonicSeconds() - start
            let offset = script.offset(at: min(elapsed, duration))
            let viewport = CGRect(origin: CGPoint(x: 0, y: offset), size: FeedLayout.viewport)
            let onScreen = Set(layout.items(in: viewport))
            for cell in onScreen.sorted() where visible[cell] == nil {
                var request = layout.cells[cell].request
                request.priority = .high
                let task = pipeline.imageTask(with: request)
                visible[cell] = task
                completions.append(watch(task, cell: cell, appearance: recorder.appeared(cell)))
            }
            for (cell, task) in visible where !onScreen.contains(cell) {
                visible[cell] = nil
                if recorder.disappeared(cell) { task.cancel() }
            }
            let change = window.update(offset: viewport.origin, viewportSize: FeedLayout.viewport)
            prefetcher.startPrefetching(with: change.added.map { layout.cells[$0].request })
            prefetcher.stopPrefetching(with: change.removed.map { layout.cells[$0].request })
            progress(min(1, elapsed / duration))
            if elapsed >= duration { break }
            try? await Task.sleep(nanoseconds: 16_000_000)
        }
        // The last screen stays up until its images arrive (or the timeout passes).
        let deadline = monotonicSeconds() + settleTimeout
        while visible.keys.contains(where: recorder.isPending), monotonicSeconds() < deadline {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        prefetcher.stopPrefetching()
        for task in visible.values { task.cancel() }
        for completion in completions { await completion.value }
    }

    private func watch(_ task: ImageTask, cell: Int, appearance: Int) -> Task<Void, Never> {
        let start = monotonicSeconds()
        return Task { [recorder] in
            let result: Result<ImageResponse, any Error>
            do {
                result = .success(try await task.response)
            } catch {
                result = .failure(error)
            }
            recorder.finished(cell, appearance: appearance, result: result, seconds: monotonicSeconds() - start)
        }
    }
}
