import Foundation
import Nuke

/// A pipeline delegate that counts every image task (the feed's and the prefetcher's) by outcome.
final class TaskObserver: ImagePipeline.Delegate, @unchecked Sendable {
    // @unchecked: `counts` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var counts = Counts()
    /// Fresh (not memory-cached) images delivered, by ``Counters/imageKey(_:)``.
    private var delivered: [String: Int] = [:]

    struct Counts {
        var created = 0
        var memoryHits = 0
        var diskHits = 0
        var loaded = 0
        var cancelled = 0
        var failed = 0
        var failures: [String] = []
    }

    var snapshot: Counts { lock.withLock { counts } }

    /// Requests that got a freshly decoded image without a decode of their own: for each image, the fresh
    /// deliveries beyond the decodes `counters` saw for it.
    func coalescedJoins(decodes counters: Counters) -> Int {
        let decodes = counters.values(withPrefix: "decode ")
        return lock.withLock { delivered.reduce(0) { $0 + max(0, $1.value - decodes[$1.key, default: 0]) } }
    }

    func imageTaskCreated(_ task: ImageTask, pipeline: ImagePipeline) {
        lock.withLock { counts.created += 1 }
    }

    func imageTask(
        _ task: ImageTask, didCompleteWithResult result: Result<ImageResponse, ImagePipeline.Error>,
        pipeline: ImagePipeline
    ) {
        lock.withLock {
            switch result {
            case let .success(response):
                if response.cacheType != .memory { delivered[Counters.imageKey(task.request), default: 0] += 1 }
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
                    if counts.failures.count < 5 { counts.failures.append(failureDescription(error)) }
                }
            }
        }
    }
}
