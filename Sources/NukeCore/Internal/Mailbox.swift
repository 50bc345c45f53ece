/// Delivers work to ``ImagePipelineActor`` in the order it was posted, from any thread.
///
/// `Task { @ImagePipelineActor in … }` does not promise that two tasks run in the order they were created;
/// the pipeline depends on order (chunks of data, a cancel that follows a start), so every message from
/// outside the actor goes through a mailbox. Messages posted while a drain is scheduled join its batch.
final class Mailbox: Sendable {
    typealias Job = @Sendable @ImagePipelineActor () -> Void

    private struct State {
        var jobs: [Job] = []
        var isScheduled = false
    }

    private let state = LockedValueBox(State())

    /// Runs `job` on the actor after every job posted before it.
    func post(_ job: @escaping Job) {
        let shouldSchedule = state.withLock { state in
            state.jobs.append(job)
            guard !state.isScheduled else { return false }
            state.isScheduled = true
            return true
        }
        if shouldSchedule {
            Task { @ImagePipelineActor in self.drain() }
        }
    }

    /// Waits until every job posted before the call has run.
    func barrier() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            post { continuation.resume() }
        }
    }

    @ImagePipelineActor
    private func drain() {
        // Run batches until the queue is empty; clearing `isScheduled` under the same lock as the emptiness
        // check means a job posted meanwhile either joins a batch here or schedules a new drain.
        for _ in 0..<64 {
            let jobs = state.withLock { state in
                let jobs = state.jobs
                state.jobs.removeAll(keepingCapacity: true)
                if jobs.isEmpty { state.isScheduled = false }
                return jobs
            }
            guard !jobs.isEmpty else { return }
            for job in jobs {
                job()
            }
        }
        // A long stream of messages: yield to other work on the actor, keeping the order.
        Task { @ImagePipelineActor in self.drain() }
    }
}
