import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way a stage does work off the task graph — read a cache, decode, process, encode — and comes back:
/// wait for a slot in the stage's queue, run the work on a worker thread, free the slot, and post the result back
/// as a mailbox job (so results arrive in order with everything else).
extension PipelineCore {
    /// Runs synchronous `work` on a worker thread once `queue` has a slot for it.
    ///
    /// - Parameters:
    ///   - qos: The quality of service of the dispatch queue the work runs on.
    ///   - work: Runs off the graph, at most once; not at all if the operation is cancelled before it starts.
    ///   - then: Called in a graph job (see ``Mailbox``) with the result and the operation, unless the work didn't
    ///     run; `nil` posts nothing (fire-and-forget work such as encoding for the disk cache).
    /// - Returns: The operation, which cancels the work (if it hasn't started) and changes its priority.
    @discardableResult
    func runOffGraph<Output: Sendable>(
        on queue: TaskQueue,
        priority: ImageRequest.Priority,
        qos: DispatchQoS.QoSClass = .userInitiated,
        _ work: @escaping @Sendable () -> Output,
        then: (@Sendable (Output, TaskQueue.Operation) -> Void)?
    ) -> TaskQueue.Operation {
        let mailbox = self.mailbox
        return queue.add(priority: priority) { operation in
            OffGraphWorker.run(qos: qos) {
                guard !operation.isCancelled else { return }
                let output = work()
                // Freeing the slot may start the queue's next work: it runs on this thread, after the post.
                OffGraphWorker.finishing {
                    operation.finish()
                } then: {
                    if let then { mailbox.post { then(output, operation) } }
                }
            }
        }
    }

    /// Runs asynchronous `work` (an ``AsyncImageDecoding`` decoder, a request's image closure) in a detached
    /// Swift task once `queue` has a slot for it; see ``runOffGraph(on:priority:qos:_:then:)``.
    ///
    /// - Parameter running: Receives the Swift task running the work, for callers that cancel it.
    @discardableResult
    func runOffGraphAsync<Output: Sendable>(
        on queue: TaskQueue,
        priority: ImageRequest.Priority,
        running: LockedValueBox<Task<Void, Never>?>? = nil,
        _ work: @escaping @Sendable () async -> Output,
        then: @escaping @Sendable (Output, TaskQueue.Operation) -> Void
    ) -> TaskQueue.Operation {
        let mailbox = self.mailbox
        return queue.add(priority: priority) { operation in
            let task = Task.detached(priority: .userInitiated) {
                guard !operation.isCancelled else { return }
                let output = await work()
                operation.finish()
                mailbox.post { then(output, operation) }
            }
            running?.withLock { $0 = task }
        }
    }
}

/// The worker threads of off-graph work: a global dispatch queue's threads, each of which keeps some of the work
/// it starts for itself rather than wake another thread for it:
/// - the work that freeing a slot in a stage's queue starts (the queue's next operation) — so a saturated stage
///   costs no wake-up per operation and still runs as many threads as the queue has slots;
/// - the first piece of work started while it runs a job (a decode started by the graph job that received the
///   data) — so a request's stages follow each other on one thread. Further work gets threads of its own.
///
/// Kept work runs after the current job, one job after the other (never nested).
///
/// Work that gets a thread of its own while the thread runs a batch of graph jobs (see
/// ``deferringDispatch(_:)``) is handed to the global queue when the batch ends, all at once: a burst of starts
/// (2,000 requests submitted together) then wakes a worker or two that take job after job, rather than one worker per
/// job that wakes, runs a few microseconds of work and sleeps again.
enum OffGraphWorker {
    /// A thread's queue of work it kept and of work it will dispatch; made once per thread, kept until the thread
    /// exits, so running a job allocates nothing here.
    private final class Backlog {
        var jobs: [@Sendable () -> Void] = []
        /// `true` while the thread runs a worker job (see ``runWorker(_:)``).
        var isRunning = false
        /// `true` only while the thread runs a `finish` (see ``finishing(_:then:)``).
        var isCapturing = false
        /// `true` while the thread runs a batch of graph jobs (see ``deferringDispatch(_:)``).
        var isDeferring = false
        /// Work for threads of its own, dispatched when the batch of graph jobs ends.
        var deferred: [(qos: DispatchQoS.QoSClass, job: @Sendable () -> Void)] = []
        /// `true` while an awaiting caller starts its request (see ``keepingFirstDispatch(_:)``).
        var isKeepingFirst = false
        /// The job the awaiting caller runs itself once its start returns.
        var kept: (@Sendable () -> Void)?
    }

    /// The current thread's backlog, released when the thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let error = pthread_key_create(&key) { backlog in
            guard let backlog else { return }
            Unmanaged<Backlog>.fromOpaque(backlog).release()
        }
        precondition(error == 0, "pthread_key_create failed: \(error)")
        return key
    }()

    /// The backlog of the worker job running on this thread; `nil` on other threads and between jobs.
    private static var runningBacklog: Backlog? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        let backlog = Unmanaged<Backlog>.fromOpaque(pointer).takeUnretainedValue()
        return backlog.isRunning ? backlog : nil
    }

    /// This thread's backlog, made on first use.
    private static var threadBacklog: Backlog {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Backlog>.fromOpaque(pointer).takeUnretainedValue()
        }
        let backlog = Backlog()
        let error = pthread_setspecific(key, Unmanaged.passRetained(backlog).toOpaque())
        precondition(error == 0, "pthread_setspecific failed: \(error)")
        return backlog
    }

    /// Runs `job` on a worker: this thread, after its current job (see above), or a new worker of a global queue
    /// (when the current batch of graph jobs ends, if the thread runs one).
    static func run(qos: DispatchQoS.QoSClass, _ job: @escaping @Sendable () -> Void) {
        guard let pointer = pthread_getspecific(key) else {
            return DispatchQueue.global(qos: qos).async { runWorker(job) }
        }
        let backlog = Unmanaged<Backlog>.fromOpaque(pointer).takeUnretainedValue()
        if backlog.isRunning, backlog.isCapturing || backlog.jobs.isEmpty {
            // One job per freed slot: a queue's drain may start the successors of slots other threads freed
            // meanwhile (it starts all startable work), and those must keep their own threads.
            backlog.isCapturing = false
            backlog.jobs.append(job)
        } else if backlog.isDeferring {
            backlog.deferred.append((qos, job))
        } else {
            DispatchQueue.global(qos: qos).async { runWorker(job) }
        }
    }

    /// Runs `batch` (graph jobs, see ``Mailbox``); the work that gets threads of its own meanwhile is dispatched
    /// after it, in the order it was started. Nested calls (a job that drains another pipeline's mailbox) dispatch
    /// with the outermost one.
    static func deferringDispatch(_ batch: () -> Void) {
        let backlog = threadBacklog
        guard !backlog.isDeferring else { return batch() }
        backlog.isDeferring = true
        batch()
        backlog.isDeferring = false
        guard !backlog.deferred.isEmpty else { return }
        for (qos, job) in backlog.deferred {
            if backlog.isKeepingFirst, backlog.kept == nil, qos == .default {
                backlog.kept = job
            } else {
                DispatchQueue.global(qos: qos).async { runWorker(job) }
            }
        }
        backlog.deferred.removeAll(keepingCapacity: true)
    }

    /// Runs `start` (a caller that will wait for the result posting its request's start to the graph) and then, on
    /// this thread, the first default-priority worker job the start left for a thread of its own — the request's
    /// data closure — with the work it keeps (the decode that follows): the caller's thread would wait for them
    /// anyway, and a closure that returns without suspending then finishes the request before the caller awaits it,
    /// with no thread woken for the work and none for the caller's resumption. Those jobs run on default-priority
    /// threads of the global queue otherwise, which on Linux are the Swift tasks' threads too, so no other kind of
    /// thread takes the work; slower work (disk reads, decodes started by the graph) keeps its own threads.
    ///
    /// Nested in a worker job or a batch of graph jobs (a data closure that awaits another request), `start` just
    /// runs.
    static func keepingFirstDispatch(_ start: () -> Void) {
        let backlog = threadBacklog
        guard !backlog.isRunning, !backlog.isDeferring, !backlog.isKeepingFirst else { return start() }
        backlog.isKeepingFirst = true
        start()
        backlog.isKeepingFirst = false
        guard let job = backlog.kept else { return }
        backlog.kept = nil
        runWorker(job)
    }

    /// Runs `job`, then (one after the other, not nested) the work this thread kept meanwhile.
    private static func runWorker(_ job: @Sendable () -> Void) {
        let backlog = threadBacklog
        backlog.isRunning = true
        job()
        // Usually one or two jobs: taken off the front (not kept until the loop ends, so what they capture is
        // freed as soon as each has run).
        while !backlog.jobs.isEmpty {
            backlog.jobs.removeFirst()()
        }
        backlog.isRunning = false
    }

    /// Runs `finish` (which frees a stage's slot) so that the work it starts is kept by this thread, to run after
    /// the current job; then `after`.
    static func finishing(_ finish: () -> Void, then after: () -> Void) {
        let backlog = runningBacklog
        backlog?.isCapturing = true
        finish()
        backlog?.isCapturing = false
        after()
    }
}

/// Runs Swift tasks of the graph (a request's data closure) on ``OffGraphWorker`` threads, so that the work that
/// follows them (the decode of the data) can stay on the same thread.
///
/// Its workers are threads of the default-QoS global queue. On Linux that queue's threads are also the ones that run
/// Swift's default-priority tasks — the app's task awaiting the image, usually — so the request's work and the
/// caller's continuation share one pool: resuming the caller takes a thread that is already awake more often,
/// rather than waking a sleeping one of a second pool (measured: a third of the context switches per request, and
/// half the CPU per request one at a time; BENCHMARKS.md). Decoding and processing started by the graph itself
/// (``PipelineCore/runOffGraph(on:priority:qos:_:then:)``) stays on the user-initiated queue.
final class OffGraphExecutor: TaskExecutor {
    /// The executor every pipeline uses.
    static let shared = OffGraphExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        OffGraphWorker.run(qos: .default) { job.runSynchronously(on: executor) }
    }
}
