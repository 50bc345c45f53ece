import Foundation

/// The executor the cache-tests client's tasks prefer: one thread of its own that runs their jobs in order.
///
/// The suite keeps time: a response given a 2 s lifetime must still be fresh when the next request reads it, and
/// the `Date` header's whole seconds already take up to one of those. Swift Testing runs synchronous tests on the
/// cooperative pool, which is as wide as the machine (two threads on CI), and a CPU-bound test there (a model check,
/// a pixel loop under ThreadSanitizer) holds a thread for seconds; the client's continuations and its 3 s pauses
/// waited behind them, a second or more late, and fresh responses went stale between two requests. On this thread
/// the client resumes as soon as the pipeline answers. The pipeline's own work runs on its threads as it would in an
/// app.
final class CacheTestsClientExecutor: TaskExecutor, @unchecked Sendable {
    /// The one executor of the test process; its thread waits for jobs while no test runs.
    static let shared = CacheTestsClientExecutor()

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "cache-tests client"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}
