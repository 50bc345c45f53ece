import Dispatch
import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

/// The mailbox's decisions as values, then the mailbox itself across threads.
@Suite struct MailboxStateTests {
    @Test func firstPostDrainsLaterPostsAppend() {
        var state = MailboxState<Int>()
        #expect(state.post(1) == .drain)
        #expect(state.post(2) == .appended)
        #expect(state.isDraining)
        #expect(state.pending == [1, 2])
    }

    @Test func drainTakesBatchesInOrderThenStops() {
        var state = MailboxState<Int>()
        _ = state.post(1)
        var batch: [Int] = []
        #expect(state.nextBatch(into: &batch, afterRunning: 0) == .run)
        #expect(batch == [1])
        #expect(state.post(2) == .appended)  // Posted while the batch runs: the same drain runs it next.
        batch.removeAll()
        #expect(state.nextBatch(into: &batch, afterRunning: 1) == .run)
        #expect(batch == [2])
        batch.removeAll()
        #expect(state.nextBatch(into: &batch, afterRunning: 2) == .stop)
        #expect(!state.isDraining)
        #expect(state.post(3) == .drain)  // The next post starts a new drain.
    }

    @Test func aLongDrainHandsOffAndStaysDraining() {
        var state = MailboxState<Int>()
        _ = state.post(0)
        var batch: [Int] = []
        #expect(state.nextBatch(into: &batch, afterRunning: MailboxState<Int>.drainLimit) == .handOff)
        #expect(batch.isEmpty)
        #expect(state.isDraining)
        #expect(state.post(1) == .appended)  // Still one drainer: the one that takes over.
        #expect(state.nextBatch(into: &batch, afterRunning: 0) == .run)
        #expect(batch == [0, 1])
    }
}

@Suite struct MailboxTests {
    @Test func anIdleMailboxRunsThePostOnThisThread() {
        let mailbox = Mailbox()
        let ran = LockedValueBox(false)
        mailbox.post { ran.withLock { $0 = true } }
        #expect(ran.snapshot)  // Already ran, before `post` returned.
    }

    @Test func postsFromAJobRunAfterIt() {
        let mailbox = Mailbox()
        let log = LockedValueBox<[String]>([])
        mailbox.post {
            log.withLock { $0.append("a start") }
            mailbox.post { log.withLock { $0.append("b") } }
            log.withLock { $0.append("a end") }
        }
        #expect(log.snapshot == ["a start", "a end", "b"])
    }

    @Test func postLaterNeverRunsBeforeItReturns() async {
        let mailbox = Mailbox()
        let ran = LockedValueBox(false)
        let gate = DispatchSemaphore(value: 0)
        mailbox.postLater { gate.wait() }  // Keeps the drain busy on another thread.
        mailbox.postLater { ran.withLock { $0 = true } }
        #expect(!ran.snapshot)
        gate.signal()
        await mailbox.barrier()
        #expect(ran.snapshot)
    }

    @Test func jobsFromManyThreadsRunOneAtATimeInEachThreadsOrder() async {
        let mailbox = Mailbox()
        let threads = 8
        let perThread = 2_000
        // Not locked: only jobs touch it, and the mailbox promises they never overlap (TSan checks that too).
        final class Log: @unchecked Sendable {
            var last = [Int](repeating: -1, count: 8)
            var isOrdered = true
            var count = 0
        }
        let log = Log()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for index in 0..<perThread {
                        mailbox.post {
                            if log.last[thread] != index - 1 { log.isOrdered = false }
                            log.last[thread] = index
                            log.count += 1
                        }
                    }
                }
            }
        }
        await mailbox.barrier()
        mailbox.post {
            #expect(log.isOrdered)
            #expect(log.count == threads * perThread)
        }
    }
}

/// Work started by graph jobs that gets a thread of its own is dispatched when the batch of jobs ends.
///
/// The work runs at `.userInitiated`, whose threads are not the ones Swift's default-priority tasks (these tests)
/// run on and block: work dispatched at once would start during the batch.
@Suite(.serialized) struct OffGraphWorkerDeferralTests {
    /// Waits (up to 10 s) until `count` signals arrived; `false` if they didn't.
    private func wait(_ semaphore: DispatchSemaphore, count: Int = 1) -> Bool {
        (0..<count).allSatisfy { _ in semaphore.wait(timeout: .now() + 10) == .success }
    }

    @Test func workStartedByAMailboxJobStartsAfterTheJob() {
        let mailbox = Mailbox()
        let log = LockedValueBox<[String]>([])
        let done = DispatchSemaphore(value: 0)
        mailbox.post {
            OffGraphWorker.run(qos: .userInitiated) {
                log.withLock { $0.append("work") }
                done.signal()
            }
            // Long enough for the work to have started, had it been dispatched at once.
            Thread.sleep(forTimeInterval: 0.05)
            log.withLock { $0.append("job end") }
        }
        #expect(wait(done))
        #expect(log.snapshot == ["job end", "work"])
    }

    @Test func everyDeferredJobRunsOnceWithTheirQualityOfService() {
        let count = 200
        let ran = LockedValueBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        OffGraphWorker.deferringDispatch {
            for index in 0..<count {
                OffGraphWorker.run(qos: index.isMultiple(of: 2) ? .default : .userInitiated) {
                    ran.withLock { $0.append(index) }
                    done.signal()
                }
            }
            #expect(ran.snapshot.isEmpty)
        }
        #expect(wait(done, count: count))
        #expect(ran.snapshot.sorted() == Array(0..<count))
    }

    @Test func aNestedBatchDispatchesWithTheOutermost() {
        let ran = LockedValueBox(false)
        let done = DispatchSemaphore(value: 0)
        OffGraphWorker.deferringDispatch {
            OffGraphWorker.deferringDispatch {
                OffGraphWorker.run(qos: .userInitiated) {
                    ran.withLock { $0 = true }
                    done.signal()
                }
            }
            Thread.sleep(forTimeInterval: 0.05)
            #expect(!ran.snapshot)  // The inner batch ended, the outer one hasn't.
        }
        #expect(wait(done))
        #expect(ran.snapshot)
    }

    @Test func anAwaitingCallerRunsTheFirstDefaultPriorityJobOfItsStartItself() {
        // Given a start (a batch of graph jobs) that leaves two default-priority jobs and a user-initiated one
        let log = LockedValueBox<[String]>([])
        let threads = LockedValueBox<[String: pthread_t]>([:])
        let done = DispatchSemaphore(value: 0)
        let record: @Sendable (String) -> Void = { name in
            threads.withLock { $0[name] = pthread_self() }
            log.withLock { $0.append(name) }
            done.signal()
        }

        // When an awaiting caller runs it
        OffGraphWorker.keepingFirstDispatch {
            OffGraphWorker.deferringDispatch {
                OffGraphWorker.run(qos: .default) { record("first") }
                OffGraphWorker.run(qos: .userInitiated) { record("decode") }
                OffGraphWorker.run(qos: .default) { record("second") }
            }
            log.withLock { $0.append("start returned") }
        }

        // Then the first default-priority job ran on the caller's thread, after its start and before the caller went
        // on; the others ran on threads of their own
        let caller = pthread_self()
        let order = log.snapshot
        #expect(order.firstIndex(of: "start returned").map { $0 < order.firstIndex(of: "first") ?? -1 } == true)
        #expect(threads.snapshot["first"] == caller)
        #expect(wait(done, count: 3))
        #expect(threads.snapshot["decode"] != caller)
        #expect(threads.snapshot["second"] != caller)
    }

    @Test func inAWorkerJobAStartKeepsNothing() {
        // Given a worker job (a data closure) that starts a request of its own
        let ran = LockedValueBox<[String]>([])
        let done = DispatchSemaphore(value: 0)
        OffGraphWorker.run(qos: .userInitiated) {
            OffGraphWorker.keepingFirstDispatch {
                OffGraphWorker.deferringDispatch {
                    OffGraphWorker.run(qos: .default) {
                        ran.withLock { $0.append("inner") }
                        done.signal()
                    }
                }
            }
            // Then the start's job isn't run here, nested in the worker job
            ran.withLock { $0.append("worker end") }
            done.signal()
        }
        #expect(wait(done, count: 2))
        #expect(ran.snapshot.first == "worker end")
    }

    @Test func outsideABatchWorkIsDispatchedAtOnce() {
        let done = DispatchSemaphore(value: 0)
        OffGraphWorker.run(qos: .default) { done.signal() }
        #expect(wait(done))
    }
}
