/// The state of the curl multi loop, as a pure value: which transfers wait to be added to or removed from the
/// multi handle, whether the loop thread runs, and whether a wake-up is already on its way.
///
/// Every method returns what the caller must do; the caller holds the lock around the call and performs the
/// action (start the thread, `curl_multi_wakeup`) after releasing it. Only the loop thread calls
/// ``nextIteration()`` and ``didComplete(_:)``. Generic over the transfer so tests can drive it with plain values.
///
/// Lifecycle: `idle` (no thread yet) → `running` (first submission starts the thread) → `stopped` (the owner
/// was released and no transfer is left; the thread exits and never restarts).
struct CurlMultiStateMachine<Transfer> {
    enum Phase: Equatable {
        case idle, running, stopped
    }

    /// What the caller does after ``submit(_:id:)``, ``cancel(_:)`` or ``releaseOwner()``.
    enum Action: Equatable {
        /// Nothing: the loop will see the change on its own (or there's nothing to do).
        case none
        /// Start the loop thread (the first submission).
        case startLoop
        /// Wake the loop out of `curl_multi_poll`.
        case wakeUp
        /// The loader is gone; the transfer can't run. (Unreachable through the public API.)
        case reject
    }

    /// What the loop does in one turn, before `curl_multi_perform`.
    struct Iteration {
        /// Transfers to add to the multi handle, in submission order.
        var additions: [(id: Int, transfer: Transfer)] = []
        /// Ids of cancelled transfers to remove from the multi handle.
        var removals: [Int] = []
        /// `true` when the loop should exit now: the owner is gone and no transfer is left.
        var shouldStop = false
    }

    private(set) var phase = Phase.idle
    private var pendingAdditions: [(id: Int, transfer: Transfer)] = []
    private var pendingRemovals: [Int] = []
    /// Ids handed to the loop and not yet completed or removed.
    private var active: Set<Int> = []
    private var isWakeUpPending = false
    private var isOwnerReleased = false

    /// The number of transfers submitted and not yet completed, removed or withdrawn.
    var transferCount: Int { pendingAdditions.count + active.count }

    /// Queues `transfer` for addition.
    mutating func submit(_ transfer: Transfer, id: Int) -> Action {
        guard phase != .stopped, !isOwnerReleased else { return .reject }
        pendingAdditions.append((id, transfer))
        if phase == .idle {
            phase = .running
            isWakeUpPending = false
            return .startLoop
        }
        return requestWakeUp()
    }

    /// Cancels transfer `id`. A transfer the loop hasn't taken yet is withdrawn (it never reaches curl); an
    /// active one is queued for removal; a completed or unknown one is ignored.
    mutating func cancel(_ id: Int) -> Action {
        if let index = pendingAdditions.firstIndex(where: { $0.id == id }) {
            pendingAdditions.remove(at: index)
            return stopIfDone()
        }
        guard active.remove(id) != nil else { return .none }
        pendingRemovals.append(id)
        return requestWakeUp()
    }

    /// The loader was released: no more submissions. The loop finishes the transfers it has, then stops.
    mutating func releaseOwner() -> Action {
        isOwnerReleased = true
        if phase == .idle {
            phase = .stopped
            return .none
        }
        return stopIfDone()
    }

    /// Takes the pending work for one turn of the loop (loop thread only).
    mutating func nextIteration() -> Iteration {
        isWakeUpPending = false
        var iteration = Iteration()
        iteration.additions = pendingAdditions
        iteration.removals = pendingRemovals
        pendingAdditions.removeAll()
        pendingRemovals.removeAll()
        for addition in iteration.additions { active.insert(addition.id) }
        if isOwnerReleased, active.isEmpty, phase == .running {
            phase = .stopped
            iteration.shouldStop = true
        }
        return iteration
    }

    /// Transfer `id` finished inside curl (loop thread only). Returns `true` when the loop should take another
    /// turn at once instead of polling (the owner is gone and this was the last transfer).
    mutating func didComplete(_ id: Int) -> Bool {
        active.remove(id)
        return isOwnerReleased && transferCount == 0
    }

    private mutating func requestWakeUp() -> Action {
        guard phase == .running, !isWakeUpPending else { return .none }
        isWakeUpPending = true
        return .wakeUp
    }

    private mutating func stopIfDone() -> Action {
        guard isOwnerReleased, transferCount == 0 else { return .none }
        return requestWakeUp()
    }
}
