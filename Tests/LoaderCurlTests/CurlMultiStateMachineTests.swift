import Testing

@testable import LoaderCurl

@Suite("CurlMultiStateMachine")
struct CurlMultiStateMachineTests {
    typealias Machine = CurlMultiStateMachine<String, String>

    @Test func firstSubmissionStartsTheLoopAndLaterOnesWakeItOnce() {
        // Given an idle machine
        var machine = Machine()

        // When three transfers are submitted before the loop runs
        let first = machine.submit("a", id: 1, host: "h")
        let second = machine.submit("b", id: 2, host: "h")
        let third = machine.submit("c", id: 3, host: "h")

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
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.submit("b", id: 2, host: "h")

        // When the loop takes its turn
        let iteration = machine.nextIteration()

        // Then it gets both in submission order, and the next submission wakes it again
        #expect(iteration.additions.map(\.transfer) == ["a", "b"])
        #expect(iteration.removals.isEmpty)
        #expect(!iteration.shouldStop)
        let submitAction1 = machine.submit("c", id: 3, host: "h")
        #expect(submitAction1 == .wakeUp)
    }

    @Test func cancellingAPendingTransferWithdrawsItWithoutWakingTheLoop() {
        // Given a transfer the loop hasn't taken yet
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")

        // When it's cancelled
        let action = machine.cancel(1)

        // Then it never reaches curl
        #expect(action == .none)
        let iteration2 = machine.nextIteration()
        #expect(iteration2.additions.isEmpty)
        #expect(machine.transferCount == 0)
    }

    @Test func cancellingAnActiveTransferQueuesItsRemoval() {
        // Given a transfer inside curl
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.nextIteration()

        // When it's cancelled (twice)
        let first = machine.cancel(1)
        let second = machine.cancel(1)

        // Then the loop is woken once and removes it once
        #expect(first == .wakeUp)
        #expect(second == .none)
        let iteration3 = machine.nextIteration()
        #expect(iteration3.removals == [1])
        #expect(machine.transferCount == 0)
    }

    @Test func cancellingACompletedTransferDoesNothing() {
        // Given a transfer that completed
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.nextIteration()
        _ = machine.didComplete(1)

        // When it's cancelled afterwards
        let action = machine.cancel(1)

        // Then nothing happens
        #expect(action == .none)
        let iteration4 = machine.nextIteration()
        #expect(iteration4.removals.isEmpty)
    }

    @Test func releasedOwnerStopsTheLoopOnceTheLastTransferCompletes() {
        // Given a running loop with one active transfer
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.nextIteration()

        // When the owner is released, the loop keeps going until the transfer completes
        let releaseAction5 = machine.releaseOwner()
        #expect(releaseAction5 == .none)
        let iteration6 = machine.nextIteration()
        #expect(!iteration6.shouldStop)
        let turnAgain = machine.didComplete(1)

        // Then the completion asks for another turn, which stops the loop for good
        #expect(turnAgain)
        let iteration7 = machine.nextIteration()
        #expect(iteration7.shouldStop)
        #expect(machine.phase == .stopped)
        let submitAction8 = machine.submit("b", id: 2, host: "h")
        #expect(submitAction8 == .reject)
    }

    @Test func releasedOwnerWithNoTransfersWakesTheLoopToStop() {
        // Given a running loop with nothing to do
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.nextIteration()
        _ = machine.didComplete(1)

        // When the owner is released
        let action = machine.releaseOwner()

        // Then the loop is woken and stops
        #expect(action == .wakeUp)
        let iteration9 = machine.nextIteration()
        #expect(iteration9.shouldStop)
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
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.nextIteration()
        _ = machine.didComplete(1)
        let submitAction10 = machine.submit("b", id: 2, host: "h")
        #expect(submitAction10 == .wakeUp)
        let releaseAction11 = machine.releaseOwner()
        #expect(releaseAction11 == .none)

        // When the pending transfer is withdrawn
        let action = machine.cancel(2)

        // Then no second wake-up is needed, and the loop's next turn stops it
        #expect(action == .none)
        let iteration = machine.nextIteration()
        #expect(iteration.additions.isEmpty)
        #expect(iteration.shouldStop)
    }

    @Test func perHostLimitHoldsBackTransfersUntilASlotFrees() {
        // Given a limit of two transfers per host
        var machine = Machine(maximumPerHost: 2)
        _ = machine.submit("a1", id: 1, host: "a")
        _ = machine.submit("a2", id: 2, host: "a")
        _ = machine.submit("a3", id: 3, host: "a")
        let fourth = machine.submit("b1", id: 4, host: "b")

        // When the loop takes its turn
        let first = machine.nextIteration()

        // Then two of host a and the one of host b run (the wake-up of the second submission covers the
        // fourth); the third of host a waits
        #expect(first.additions.map(\.transfer) == ["a1", "a2", "b1"])
        #expect(fourth == .none)
        #expect(machine.waitingCount == 1)

        // When one of host a completes, the waiting one is admitted and the loop turns again at once
        let turnAgain12 = machine.didComplete(1)
        #expect(turnAgain12)
        let iteration13 = machine.nextIteration()
        #expect(iteration13.additions.map(\.transfer) == ["a3"])
        #expect(machine.waitingCount == 0)
    }

    @Test func totalLimitAdmitsInSubmissionOrder() {
        // Given a total limit of one
        var machine = Machine(maximumTotal: 1)
        _ = machine.submit("a", id: 1, host: "x")
        _ = machine.submit("b", id: 2, host: "y")
        _ = machine.submit("c", id: 3, host: "z")
        let iteration14 = machine.nextIteration()
        #expect(iteration14.additions.map(\.transfer) == ["a"])

        // When the running one is cancelled
        let action = machine.cancel(1)

        // Then its removal and the next admission come in the same turn
        #expect(action == .wakeUp)
        let iteration = machine.nextIteration()
        #expect(iteration.removals == [1])
        #expect(iteration.additions.map(\.transfer) == ["b"])
        #expect(machine.transferCount == 2)
    }

    @Test func cancellingAWaitingTransferFreesNothingAndWithdrawsIt() {
        // Given one running and one waiting transfer under a limit of one per host
        var machine = Machine(maximumPerHost: 1)
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.submit("b", id: 2, host: "h")
        _ = machine.nextIteration()

        // When the waiting one is cancelled
        let action = machine.cancel(2)

        // Then nothing changes for the loop, and completing the first admits nobody
        #expect(action == .none)
        #expect(machine.waitingCount == 0)
        let turnAgain15 = machine.didComplete(1)
        #expect(!turnAgain15)
        let iteration16 = machine.nextIteration()
        #expect(iteration16.additions.isEmpty)
    }

    @Test func cancellingAnAdmittedButUntakenTransferAdmitsTheNextOne() {
        // Given a limit of one per host, with one admitted (not yet taken) and one waiting
        var machine = Machine(maximumPerHost: 1)
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.submit("b", id: 2, host: "h")

        // When the admitted one is cancelled before the loop takes it
        _ = machine.cancel(1)

        // Then the waiting one takes its place
        let iteration17 = machine.nextIteration()
        #expect(iteration17.additions.map(\.transfer) == ["b"])
    }

    @Test func aHostThatMultiplexesGetsOneConnectionsWorthOfStreams() {
        // Given a limit of one per host and 150 transfers to one host
        var machine = Machine(maximumPerHost: 1)
        for id in 1...150 { _ = machine.submit("t\(id)", id: id, host: "h") }
        _ = machine.nextIteration()

        // When the first completes over HTTP/2
        let turnAgain = machine.didComplete(1, hostMultiplexes: true)

        // Then the next 100 are admitted at once, and the rest wait for streams to free up
        #expect(turnAgain)
        let iteration = machine.nextIteration()
        #expect(iteration.additions.count == Machine.streamsPerMultiplexingHost)
        #expect(iteration.additions.first?.transfer == "t2")
        #expect(machine.waitingCount == 49)
    }
}

@Suite("CurlMultiStateMachine turns and responses")
struct CurlMultiStateMachineTurnTests {
    typealias Machine = CurlMultiStateMachine<String, String>

    @Test func changesDuringABusyTurnNeedNoWakeUpButTheCheckBeforePollingSeesThem() {
        // Given a loop in the middle of a turn
        var machine = Machine(maximumPerHost: 1)
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.beginTurn()

        // When a completion callback on the loop thread starts the next load
        let turnAgain = machine.didComplete(1)
        let submitted = machine.submit("b", id: 2, host: "h")

        // Then no wake-up is asked for, and the loop takes another turn instead of polling
        #expect(!turnAgain)
        #expect(submitted == .none)
        let mayPoll = machine.willPoll()
        #expect(!mayPoll)
        let iteration = machine.beginTurn()
        #expect(iteration.additions.map(\.transfer) == ["b"])
    }

    @Test func changesWhileTheLoopPollsWakeItOnce() {
        // Given a loop that finished its turn and polls
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.beginTurn()
        let mayPoll = machine.willPoll()

        // When two loads are submitted and one is cancelled
        let first = machine.submit("b", id: 2, host: "h")
        let second = machine.submit("c", id: 3, host: "h")
        let cancel = machine.cancel(1)

        // Then only the first change wakes it
        #expect(mayPoll)
        #expect(first == .wakeUp)
        #expect(second == .none)
        #expect(cancel == .none)
        let iteration = machine.beginTurn()
        #expect(iteration.additions.map(\.transfer) == ["b", "c"])
        #expect(iteration.removals == [1])
    }

    @Test func builtResponsesWakeAPollingLoopAndArriveInItsNextTurn() {
        // Given a loop that sent two responses to be built and polls
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.beginTurn()
        machine.willBuildResponses(count: 2)
        let mayPoll = machine.willPoll()

        // When the builder hands them back
        let action = machine.didBuildResponses([(1, "r1"), (2, "r2")])

        // Then the loop is woken and gets them, in order
        #expect(mayPoll)
        #expect(action == .wakeUp)
        let iteration = machine.beginTurn()
        #expect(iteration.responses.map(\.response) == ["r1", "r2"])
        #expect(iteration.responses.map(\.id) == [1, 2])
    }

    @Test func responsesBuiltWhileTheLoopIsBusyNeedNoWakeUp() {
        // Given a busy loop that sent a response to be built
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.beginTurn()
        machine.willBuildResponses(count: 1)

        // When the response comes back before the loop polls
        let action = machine.didBuildResponses([(1, "r1")])

        // Then there's no wake-up; the check before polling sends the loop round again to take it
        #expect(action == .none)
        let mayPoll = machine.willPoll()
        #expect(!mayPoll)
        let iteration = machine.beginTurn()
        #expect(iteration.responses.map(\.response) == ["r1"])
    }

    @Test func theLoopOfAReleasedOwnerWaitsForResponsesBeingBuilt() {
        // Given a released owner whose last transfer finished while its response is being built
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.beginTurn()
        machine.willBuildResponses(count: 1)
        _ = machine.releaseOwner()
        let turnAgain = machine.didComplete(1)

        // When the loop checks before polling
        let mayPoll = machine.willPoll()

        // Then it keeps running (and polls) until the response is back, then stops after taking it
        #expect(!turnAgain)
        #expect(mayPoll)
        #expect(machine.phase == .running)
        let action = machine.didBuildResponses([(1, "r1")])
        #expect(action == .wakeUp)
        let iteration = machine.beginTurn()
        #expect(iteration.responses.map(\.response) == ["r1"])
        #expect(iteration.shouldStop)
        #expect(machine.phase == .stopped)
    }

    @Test func theCheckBeforePollingSendsAReleasedOwnersIdleLoopToStop() {
        // Given a busy loop whose last transfer completes after the owner was released
        var machine = Machine()
        _ = machine.submit("a", id: 1, host: "h")
        _ = machine.beginTurn()
        let release = machine.releaseOwner()
        _ = machine.didComplete(1)

        // When the loop checks before polling
        let mayPoll = machine.willPoll()

        // Then it turns again, and that turn stops it
        #expect(release == .none)
        #expect(!mayPoll)
        let iteration = machine.beginTurn()
        #expect(iteration.shouldStop)
    }
}
