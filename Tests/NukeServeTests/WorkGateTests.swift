import Foundation
import NukeCore
import Testing

@testable import NukeServe

/// The admission of result-making work: a bounded number running, a bounded queue, the rest refused.
@Suite struct WorkGateTests {
    @Test func aBurstRunsOneQueuesTwoAndRefusesTheRestNeverQueueingMore() async throws {
        // Given one worker and two places in the queue, and a burst of 40 at once whose work waits for the test
        let gate = WorkGate(workers: 1, queueLimit: 2)
        let isOpen = LockedValueBox(false)
        let deepest = LockedValueBox(0)
        let outcomes = LockedValueBox<[String]>([])

        // When they all ask at once
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    let outcome = await gate.run(waitingAtMost: 60) {
                        while !isOpen.snapshot { try? await Task.sleep(for: .milliseconds(2)) }
                        return 1
                    }
                    let name =
                        switch outcome {
                        case .ran: "ran"
                        case .queueFull: "queueFull"
                        case .waitedTooLong: "waitedTooLong"
                        }
                    outcomes.withLock { $0.append(name) }
                    deepest.withLock { $0 = max($0, gate.load.waiting) }
                }
            }
            // (the refused answer at once; then the three admitted run one after another)
            while outcomes.snapshot.count < 37 { try? await Task.sleep(for: .milliseconds(5)) }
            deepest.withLock { $0 = max($0, gate.load.waiting) }
            isOpen.withLock { $0 = true }
        }

        // Then three ran and 37 were refused; the queue never held more than its two
        #expect(outcomes.snapshot.filter { $0 == "ran" }.count == 3)
        #expect(outcomes.snapshot.filter { $0 == "queueFull" }.count == 37)
        #expect(deepest.snapshot <= 2)
        #expect(gate.load.running == 0 && gate.load.waiting == 0)
    }

    @Test func aWaiterWhoseTimeRunsOutLeavesTheQueue() async {
        // Given the only worker busy until the test says
        let gate = WorkGate(workers: 1, queueLimit: 4)
        let isOpen = LockedValueBox(false)
        async let busy = gate.run(waitingAtMost: 60) {
            while !isOpen.snapshot { try? await Task.sleep(for: .milliseconds(2)) }
            return 0
        }
        while gate.load.running == 0 { try? await Task.sleep(for: .milliseconds(2)) }

        // When work that may wait no time at all and work that may wait 50 ms ask
        let none = await gate.run(waitingAtMost: 0) { 1 }
        let short = await gate.run(waitingAtMost: 0.05) { 2 }

        // Then neither ran, and the queue is empty again
        #expect(!none.didRun && !short.didRun)
        #expect(gate.load.waiting == 0)
        isOpen.withLock { $0 = true }
        #expect(await busy.didRun)
        #expect(gate.load.running == 0)
    }
}

extension WorkGate.Outcome {
    fileprivate var didRun: Bool {
        if case .ran = self { return true }
        return false
    }
}
