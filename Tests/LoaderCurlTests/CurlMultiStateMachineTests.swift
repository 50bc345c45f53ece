import Testing

@testable import LoaderCurl

@Suite("CurlMultiStateMachine")
struct CurlMultiStateMachineTests {
    typealias Machine = CurlMultiStateMachine<String>

    @Test func firstSubmissionStartsTheLoopAndLaterOnesWakeItOnce() {
        // Given an idle machine
        var machine = Machine()

        // When three transfers are submitted before the loop runs
        let first = machine.submit("a", id: 1)
        let second = machine.submit("b", id: 2)
        let third = machine.submit("c", id: 3)

        // Then the first starts the loop, the second wakes it, the third needs nothing more
        #expect(first == .startLoop)
        #expect(second == .wakeUp)
        #expect(third == .none)
        #expect(machine.phase == .running)
        #expect(machine.transferCount == 3)
    }

    @Test func iterationHandsOverAdditionsInOrderAndReArmsWakeUps() {
        // Given a running machine with two pending transfers
        var machine = Machine()
        _ = machine.submit("a", id: 1)
        _ = machine.submit("b", id: 2)

        // When the loop takes its turn
        let iteration = machine.nextIteration()

        // Then it gets both in submission order, and the next submission wakes it again
        #expect(iteration.additions.map(\.transfer) == ["a", "b"])
        #expect(iteration.removals.isEmpty)
        #expect(!iteration.shouldStop)
        #expect(machine.submit("c", id: 3) == .wakeUp)
    }

    @Test func cancellingAPendingTransferWithdrawsItWithoutWakingTheLoop() {
        // Given a transfer the loop hasn't taken yet
        var machine = Machine()
        _ = machine.submit("a", id: 1)

        // When it's cancelled
        let action = machine.cancel(1)

        // Then it never reaches curl
        #expect(action == .none)
        #expect(machine.nextIteration().additions.isEmpty)
        #expect(machine.transferCount == 0)
    }

    @Test func cancellingAnActiveTransferQueuesItsRemoval() {
        // Given a transfer inside curl
        var machine = Machine()
        _ = machine.submit("a", id: 1)
        _ = machine.nextIteration()

        // When it's cancelled (twice)
        let first = machine.cancel(1)
        let second = machine.cancel(1)

        // Then the loop is woken once and removes it once
        #expect(first == .wakeUp)
        #expect(second == .none)
        #expect(machine.nextIteration().removals == [1])
        #expect(machine.transferCount == 0)
    }

    @Test func cancellingACompletedTransferDoesNothing() {
        // Given a transfer that completed
        var machine = Machine()
        _ = machine.submit("a", id: 1)
        _ = machine.nextIteration()
        _ = machine.didComplete(1)

        // When it's cancelled afterwards
        let action = machine.cancel(1)

        // Then nothing happens
        #expect(action == .none)
        #expect(machine.nextIteration().removals.isEmpty)
    }

    @Test func releasedOwnerStopsTheLoopOnceTheLastTransferCompletes() {
        // Given a running loop with one active transfer
        var machine = Machine()
        _ = machine.submit("a", id: 1)
        _ = machine.nextIteration()

        // When the owner is released, the loop keeps going until the transfer completes
        #expect(machine.releaseOwner() == .none)
        #expect(!machine.nextIteration().shouldStop)
        let turnAgain = machine.didComplete(1)

        // Then the completion asks for another turn, which stops the loop for good
        #expect(turnAgain)
        #expect(machine.nextIteration().shouldStop)
        #expect(machine.phase == .stopped)
        #expect(machine.submit("b", id: 2) == .reject)
    }

    @Test func releasedOwnerWithNoTransfersWakesTheLoopToStop() {
        // Given a running loop with nothing to do
        var machine = Machine()
        _ = machine.submit("a", id: 1)
        _ = machine.nextIteration()
        _ = machine.didComplete(1)

        // When the owner is released
        let action = machine.releaseOwner()

        // Then the loop is woken and stops
        #expect(action == .wakeUp)
        #expect(machine.nextIteration().shouldStop)
    }

    @Test func releasingAnOwnerThatNeverLoadedStopsWithoutAThread() {
        // Given a machine that never started
        var machine = Machine()

        // When the owner is released
        let action = machine.releaseOwner()

        // Then there's nothing to wake and it is stopped
        #expect(action == .none)
        #expect(machine.phase == .stopped)
    }

    @Test func withdrawingTheLastPendingTransferOfAReleasedOwnerLetsTheLoopStop() {
        // Given a released owner whose only transfer is still pending (its wake-up already on the way)
        var machine = Machine()
        _ = machine.submit("a", id: 1)
        _ = machine.nextIteration()
        _ = machine.didComplete(1)
        #expect(machine.submit("b", id: 2) == .wakeUp)
        #expect(machine.releaseOwner() == .none)

        // When the pending transfer is withdrawn
        let action = machine.cancel(2)

        // Then no second wake-up is needed, and the loop's next turn stops it
        #expect(action == .none)
        let iteration = machine.nextIteration()
        #expect(iteration.additions.isEmpty)
        #expect(iteration.shouldStop)
    }
}
