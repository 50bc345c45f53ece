import Dispatch

/// The task graph's serial executor: runs jobs one at a time, in the order they were posted, from any thread.
///
/// Every change to the graph — a request starting, a chunk of data arriving, a decode finishing, a cancel — is a
/// job posted here, and the graph's state is touched only inside jobs. There is no dedicated thread: the thread
/// that posts to an idle mailbox runs the job at once, and any jobs posted meanwhile (by itself or by other
/// threads), before it returns. A thread that posts while another one is draining only appends its job. So a
/// request that finds the graph idle costs no thread hop, and under load one thread runs a batch of jobs while the
/// others go on with their own work.
///
/// Jobs must be short (they run on the caller's thread, a loader's thread, a decoding thread): anything slow runs
/// off the graph (``PipelineCore/runOffGraph(on:priority:qos:_:then:)``). A drain that has run ``drainLimit`` jobs
/// hands the rest to a global dispatch queue, so one poster isn't kept from its own work for long.
///
/// Memory ordering: a job and the jobs after it are separated by the mailbox's lock, so each job sees everything
/// the jobs before it wrote, whichever threads they ran on.
final class Mailbox: @unchecked Sendable {
    // @unchecked: `pending` and `isDraining` are only touched under `lock`; `running` only by the one draining
    // thread (the thread that set `isDraining`, until it clears it).
    typealias Job = @Sendable () -> Void

    private let lock = Lock.make()
    private var pending: [Job] = []
    private var isDraining = false
    /// The batch being run; swapped with `pending`, so steady-state draining allocates nothing.
    private var running: [Job] = []

    /// The most jobs one drain runs before handing the rest to a dispatch queue.
    static let drainLimit = 128

    /// Runs `job` after every job posted before it: now, on this thread, if no other thread is running jobs;
    /// otherwise on the thread that is, before it stops.
    func post(_ job: @escaping Job) {
        lock.lock()
        pending.append(job)
        guard !isDraining else { return lock.unlock() }
        isDraining = true
        lock.unlock()
        drain()
    }

    /// Runs `job` after every job posted before it, never on this thread before this method returns: by the
    /// thread that is running jobs, or else on a global dispatch queue.
    ///
    /// For starts that the caller may cancel right after (``ImagePipeline/imageTask(with:)-(ImageRequest)``):
    /// a cancel in the same synchronous stretch of code is seen before any work starts.
    func postLater(_ job: @escaping Job) {
        lock.lock()
        pending.append(job)
        guard !isDraining else { return lock.unlock() }
        isDraining = true
        lock.unlock()
        DispatchQueue.global(qos: .userInitiated).async { self.drain() }
    }

    /// Waits until every job posted before the call has run.
    func barrier() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            post { continuation.resume() }
        }
    }

    /// Runs batches until none is left; called only by the thread that set `isDraining`.
    private func drain() {
        var budget = Mailbox.drainLimit
        while true {
            lock.lock()
            if pending.isEmpty {
                // Cleared under the same lock as the emptiness check: a job posted after this drains itself.
                isDraining = false
                return lock.unlock()
            }
            if budget <= 0 {
                lock.unlock()
                // Still draining (`isDraining` stays set), on another thread from now on.
                return DispatchQueue.global(qos: .userInitiated).async { self.drain() }
            }
            swap(&pending, &running)
            lock.unlock()
            budget -= running.count
            for job in running { job() }
            running.removeAll(keepingCapacity: true)
        }
    }
}
