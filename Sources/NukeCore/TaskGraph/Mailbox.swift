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
/// off the graph (``PipelineCore/runOffGraph(on:priority:qos:_:then:)``). A drain that has run
/// ``MailboxState/drainLimit`` jobs hands the rest to the mailbox's own dispatch queue, so one poster isn't kept
/// from its own work for long.
///
/// Memory ordering: a job and the jobs after it are separated by the mailbox's lock, so each job sees everything
/// the jobs before it wrote, whichever threads they ran on. The decisions (drain here, append, hand off, stop)
/// are made by ``MailboxState``, a value tested on its own.
final class Mailbox: @unchecked Sendable {
    // @unchecked: `state` is only touched under `lock`; `running` only by the one draining thread (the thread
    // whose post or hand-off started the drain, until the state machine says stop).
    typealias Job = @Sendable () -> Void

    private let lock = Lock.make()
    private var state = MailboxState<Job>()
    /// Where a drain continues when it isn't run by a poster. A queue of its own (serial, so overcommitting): it
    /// gets a thread even while the global queues' threads are all busy with long work, so the graph never waits
    /// for a decode to end elsewhere.
    private let handOffQueue = DispatchQueue(label: "com.github.nuke-linux.mailbox", qos: .userInitiated)
    /// The batch being run; swapped with the pending jobs, so steady-state draining allocates nothing.
    private var running: [Job] = []

    /// Runs `job` after every job posted before it: now, on this thread, if no other thread is running jobs;
    /// otherwise on the thread that is, before it stops.
    func post(_ job: @escaping Job) {
        let action = lock.withLock { state.post(job) }
        if action == .drain { drain() }
    }

    /// Runs `job` after every job posted before it, never on this thread before this method returns: by the
    /// thread that is running jobs, or else on the mailbox's own dispatch queue.
    ///
    /// For starts that the caller may cancel right after (``ImagePipeline/imageTask(with:)-(ImageRequest)``):
    /// a cancel in the same synchronous stretch of code is seen before any work starts.
    func postLater(_ job: @escaping Job) {
        let action = lock.withLock { state.post(job) }
        if action == .drain { handOff() }
    }

    /// Waits until every job posted before the call has run.
    func barrier() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            post { continuation.resume() }
        }
    }

    private func handOff() {
        handOffQueue.async { self.drain() }
    }

    /// Runs batches until the state machine says stop; called only by the draining thread.
    private func drain() {
        var ran = 0
        while true {
            let action = lock.withLock { state.nextBatch(into: &running, afterRunning: ran) }
            switch action {
            case .stop:
                return
            case .handOff:
                return handOff()
            case .run:
                ran += running.count
                OffGraphWorker.deferringDispatch { for job in running { job() } }
                running.removeAll(keepingCapacity: true)
            }
        }
    }
}

/// The decisions of a ``Mailbox``, as a value: which thread drains, when a drain takes the next batch, hands off
/// or stops. Every method is called under the mailbox's lock.
struct MailboxState<Job> {
    /// The most jobs one drain runs before handing the rest to another thread.
    static var drainLimit: Int { 128 }

    private(set) var pending: [Job] = []
    /// `true` from the post that starts a drain until the drain stops.
    private(set) var isDraining = false

    /// What a poster does after ``post(_:)``.
    enum PostAction: Equatable {
        /// Start draining (on this thread, or by handing off for a later post).
        case drain
        /// Nothing: the draining thread will run the job.
        case appended
    }

    /// What the draining thread does after ``nextBatch(into:afterRunning:)``.
    enum DrainAction: Equatable {
        /// Run the batch now in the buffer.
        case run
        /// Stop: nothing is pending, and the next post starts a new drain.
        case stop
        /// Continue on another thread (the drain limit was reached); the mailbox stays draining.
        case handOff
    }

    /// Appends `job`; the first post to an idle mailbox gets to drain it.
    mutating func post(_ job: Job) -> PostAction {
        pending.append(job)
        guard !isDraining else { return .appended }
        isDraining = true
        return .drain
    }

    /// Moves the pending jobs into `batch` (which must be empty) unless the drain should stop or hand off.
    ///
    /// - Parameter ran: The jobs this drain has run so far.
    mutating func nextBatch(into batch: inout [Job], afterRunning ran: Int) -> DrainAction {
        precondition(isDraining && batch.isEmpty, "nextBatch is for the draining thread, with an empty batch")
        if pending.isEmpty {
            // Cleared in the same critical section as the emptiness check: a job posted after this drains itself.
            isDraining = false
            return .stop
        }
        if ran >= Self.drainLimit {
            return .handOff
        }
        swap(&pending, &batch)
        return .run
    }
}
