import NukeTestKit
import Testing

@testable import NukeCore

/// The graph's small lock-protected state machines as values: a public task's finish-once rules, the byte budget's
/// waiting work, and a data load's cancellation.
@Suite struct PublicTaskStateTests {
    private typealias State = PublicTaskState<String, Int>

    @Test func waitersQueueUntilTheFinishHandsThemOut() throws {
        var state = State()
        let first = state.wait(1)
        let second = state.wait(2)
        #expect(first == nil && second == nil)
        let finish = state.finish(with: .success("image"), holding: nil)
        #expect(finish.isFinished)
        #expect(Array(finish.waiters) == [1, 2])
        #expect(try state.result?.get() == "image")
    }

    @Test func aWaiterAfterTheFinishGetsTheResultAtOnce() throws {
        var state = State()
        _ = state.finish(with: .failure(.cancelled), holding: nil)
        let immediate = state.wait(3)
        let result = try #require(immediate)
        #expect(throws: ImagePipeline.Error.self) { try result.get() }
    }

    @Test func onlyTheFirstFinishCountsAndALaterTicketIsReturnedToRelease() throws {
        let budget = ByteBudget(limit: 100)
        var state = State()
        _ = state.wait(1)
        let first = state.finish(with: .success("first"), holding: budget.take(10))
        #expect(first.isFinished && first.ticketToRelease == nil)
        let late = budget.take(5)
        let second = state.finish(with: .success("second"), holding: late)
        #expect(!second.isFinished && second.waiters.isEmpty)
        #expect(second.ticketToRelease === late)
        #expect(try state.result?.get() == "first")
    }

    @Test func theTicketIsHeldUntilAWaiterReceivesTheResult() {
        let budget = ByteBudget(limit: 100)
        let ticket = budget.take(10)
        var state = State()
        _ = state.wait(1)
        _ = state.finish(with: .success("image"), holding: ticket)
        let delivered = state.didDeliver()
        let again = state.didDeliver()
        #expect(delivered === ticket)
        #expect(again == nil)  // Handed out once.
    }

    @Test func withNobodyWaitingTheTicketIsReleasedAtOnce() {
        let budget = ByteBudget(limit: 100)
        let ticket = budget.take(10)
        var state = State()
        let finish = state.finish(with: .success("image"), holding: ticket)
        let delivered = state.didDeliver()
        #expect(finish.ticketToRelease === ticket)
        #expect(delivered == nil)
    }
}

@Suite struct ByteBudgetStateTests {
    @Test func withinTheLimitWorkRunsNow() {
        var state = ByteBudgetState<Int>(limit: 10)
        state.add(10)
        let runsNow = state.whenAvailable(1)
        #expect(runsNow)  // At the limit still runs: only "over" waits.
        #expect(state.waiters.isEmpty)
    }

    @Test func overTheLimitWorkWaitsAndComesBackInOrder() {
        var state = ByteBudgetState<Int>(limit: 10)
        state.add(15)
        let first = state.whenAvailable(1)
        let second = state.whenAvailable(2)
        #expect(!first && !second)
        let stillOver = state.give(3)  // 12: still over.
        #expect(stillOver.isEmpty)
        let backWithin = state.give(2)  // 10: back to the limit.
        #expect(backWithin == [1, 2])
        #expect(state.waiters.isEmpty && state.used == 10)
    }
}

@Suite struct DataLoadStateTests {
    @Test func cancelHandsOutTheWorkOnce() {
        var state = DataLoadState<Int>()
        let added = [state.add(1), state.add(2)]
        #expect(added == [.keep, .keep])
        let cancelled = state.cancel()
        let again = state.cancel()
        #expect(Array(cancelled) == [1, 2])
        #expect(again.isEmpty)
        #expect(state.isCancelled)
    }

    @Test func workAddedAfterTheCancelIsCancelledAtOnce() {
        var state = DataLoadState<Int>()
        _ = state.cancel()
        let action = state.add(3)
        #expect(action == .cancelNow)
        #expect(state.cancellables.isEmpty)
    }

    @Test func finishingDropsTheWorkAndWorkAddedAfterwardsIsNotKept() {
        // The loader's cancellable may hold callbacks that hold the load: kept after the end, it kept the load.
        var state = DataLoadState<Int>()
        _ = state.add(1)
        state.finish()
        #expect(state.cancellables.isEmpty)
        #expect(state.add(2) == .keep)  // A loader that called back before loadData returned.
        #expect(state.cancellables.isEmpty)
        #expect(state.cancel().isEmpty)
    }
}

@Suite struct TicketTests {
    @Test func concurrentGrowthAndOneReleaseBalanceTheBudget() async {
        let budget = ByteBudget(limit: 1 << 30)
        let ticket = budget.take(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1_000 { ticket.add(3) } }
            }
        }
        #expect(ticket.bytes == 24_000)
        #expect(budget.used == 24_000)
        ticket.release()
        ticket.add(5)  // Released: adds nothing.
        #expect(budget.used == 0 && ticket.bytes == 0)
    }
}

@Suite struct SmallListTests {
    @Test func keepsInsertionOrderAcrossTheInlineElementAndTheRest() {
        var list = SmallList<Int>()
        #expect(list.isEmpty && list.onlyElement == nil && list.max(of: { $0 }) == nil)
        list.append(1)
        #expect(list.onlyElement == 1 && Array(list) == [1])
        list.append(2)
        list.append(3)
        #expect(list.onlyElement == nil && Array(list) == [1, 2, 3] && list.max(of: { -$0 }) == -1)
    }

    @Test func removingAndUpdatingFindTheFirstMatch() {
        var list = SmallList<Int>()
        for value in [5, 6, 7, 6] { list.append(value) }
        let removedInline = list.remove(where: { $0 == 5 })  // The inline element: the next one moves in.
        #expect(removedInline && Array(list) == [6, 7, 6])
        let updated = [list.update(where: { $0 == 6 }, { $0 = 60 }), list.update(where: { $0 == 6 }, { $0 = 61 })]
        #expect(updated == [true, true] && Array(list) == [60, 7, 61])
        let removed = [list.remove(where: { $0 == 7 }), list.remove(where: { $0 == 7 })]
        let updatedMissing = list.update(where: { $0 == 7 }, { $0 = 0 })
        #expect(removed == [true, false] && !updatedMissing && Array(list) == [60, 61])
        list.removeAll()
        #expect(list.isEmpty && Array(list).isEmpty)
    }
}
