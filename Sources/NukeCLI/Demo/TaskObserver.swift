import Foundation
import Nuke

/// A pipeline delegate that counts every image task (the feed's and the prefetcher's) by outcome.
final class TaskObserver: ImagePipeline.Delegate, @unchecked Sendable {
    // @unchecked: `counts` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var counts = Counts()

    struct Counts {
        var created = 0
        var memoryHits = 0
        var diskHits = 0
        var loaded = 0
        var cancelled = 0
        var failed = 0
        var failures: [String] = []
        /// The distinct image URLs that tasks asked for.
        var urls: Set<URL> = []
    }

    var snapshot: Counts { lock.withLock { counts } }

    func imageTaskCreated(_ task: ImageTask, pipeline: ImagePipeline) {
        lock.withLock {
            counts.created += 1
            if let url = task.request.url { counts.urls.insert(url) }
        }
    }

    func imageTask(
        _ task: ImageTask, didCompleteWithResult result: Result<ImageResponse, ImagePipeline.Error>,
        pipeline: ImagePipeline
    ) {
        lock.withLock {
            switch result {
            case let .success(response):
                switch response.cacheType {
                case .memory: counts.memoryHits += 1
                case .disk: counts.diskHits += 1
                case nil: counts.loaded += 1
                }
            case let .failure(error):
                if error.isCancelled {
                    counts.cancelled += 1
                } else {
                    counts.failed += 1
                    if counts.failures.count < 5 { counts.failures.append("\(error)") }
                }
            }
        }
    }
}
