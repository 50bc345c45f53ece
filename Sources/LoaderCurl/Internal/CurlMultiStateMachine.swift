/// The state of the curl multi loop, as a pure value: which transfers wait for a free slot (per-host and total
/// limits), which wait to be added to or removed from the multi handle, whether the loop thread runs, and
/// whether a wake-up is already on its way.
///
/// Every method returns what the caller must do; the caller holds the lock around the call and performs the
/// action (start the thread, `curl_multi_wakeup`) after releasing it. Only the loop thread calls
/// ``beginTurn()``, ``nextIteration()``, ``willPoll()``, ``didComplete(_:hostMultiplexes:)`` and
/// ``willBuildResponses(count:)``. Generic over the transfer and the response so tests can drive it with plain
/// values.
///
/// Limits are enforced here, not with curl's `CURLMOPT_MAX_HOST_CONNECTIONS`/`MAX_TOTAL_CONNECTIONS`: curl's
/// queue of transfers waiting for a connection can strand a transfer until its connect timeout (observed with
/// 7.88.1; see curl/curl#18056). A transfer is *admitted* when it's within the limits; only admitted transfers
/// reach curl, highest priority first and in submission order among equal priorities (per host, and across hosts as
/// far as the limits allow); the bookkeeping is a
/// ``CurlAdmissionQueue``, one queue per host, so admitting costs the same with 10 or 10,000 transfers waiting.
/// Once a host showed it multiplexes (HTTP/2), its limit becomes ``streamsPerMultiplexingHost`` (curl's default
/// of concurrent streams per connection): curl then runs its transfers over one shared connection, where a larger
/// burst would make it open dozens of connections.
///
/// Wake-ups: between ``beginTurn()`` and ``willPoll()`` the loop is busy and checks for work before it polls, so
/// changes made meanwhile — on other threads, or by callbacks on the loop thread itself, such as a completion
/// that starts the next load — need no `curl_multi_wakeup`; once it polls, the first change wakes it.
///
/// Responses are built off the loop thread (``CurlResponseBuilder``): the loop announces each batch
/// (``willBuildResponses(count:)``), the builder hands the results back (``didBuildResponses(_:)``), and the loop's
/// next turn takes them (``Iteration/responses``) to deliver the bytes (and completions) that waited for them.
///
/// Lifecycle: `idle` (no thread yet) → `running` (first submission starts the thread) → `stopped` (the owner
/// was released, no transfer is left and no response is being built; the thread exits and never restarts).
struct CurlMultiStateMachine<Transfer, Response> {
    enum Phase: Equatable {
        case idle, running, stopped
    }

    /// What the caller does after ``submit(_:id:host:)``, ``cancel(_:)``, ``releaseOwner()`` or
    /// ``didBuildResponses(_:)``.
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
        /// Transfers to add to the multi handle, in admission order.
        var additions: [(id: Int, transfer: Transfer)] = []
        /// Ids of cancelled transfers to remove from the multi handle.
        var removals: [Int] = []
        /// Responses built since the last turn, by transfer id, in the order they were built.
        var responses: [(id: Int, response: Response)] = []
        /// `true` when the loop should exit now: the owner is gone and no transfer is left.
        var shouldStop = false
    }

    private(set) var phase = Phase.idle
    /// The per-host and total limits and the transfers waiting for them.
    private var admission: CurlAdmissionQueue<Transfer>
    /// Admitted, not yet taken by the loop, in admission order. A transfer cancelled meanwhile stays here until
    /// the next turn, which skips it (it is no longer admitted).
    private var pendingAdditions: [(id: Int, transfer: Transfer)] = []
    private var pendingRemovals: [Int] = []
    /// Ids handed to the loop and not yet completed or removed.
    private var active: Set<Int> = []
    private var isWakeUpPending = false
    /// Between ``beginTurn()`` and ``willPoll()``: the loop checks for work before polling, so changes made
    /// meanwhile (from any thread, including callbacks on the loop thread itself) need no wake-up.
    private var isLoopBusy = false
    /// Responses announced by the loop and not yet handed back by the builder.
    private var responsesBeingBuilt = 0
    private var builtResponses: [(id: Int, response: Response)] = []
    private var isOwnerReleased = false

    init(maximumPerHost: Int = 0, maximumTotal: Int = 0) {
        admission = CurlAdmissionQueue(maximumPerHost: maximumPerHost, maximumTotal: maximumTotal)
    }

    /// The most admitted transfers per host and in total; 0 means no limit.
    var maximumPerHost: Int { admission.maximumPerHost }
    var maximumTotal: Int { admission.maximumTotal }

    /// The per-host limit for hosts known to multiplex (unless ``maximumPerHost`` is 0, meaning no limit).
    static var streamsPerMultiplexingHost: Int { CurlAdmissionQueue<Transfer>.streamsPerMultiplexingHost }

    /// The number of transfers submitted and not yet completed, removed or withdrawn.
    var transferCount: Int { admission.waitingCount + admission.admittedCount }

    /// The number of transfers waiting for a slot.
    var waitingCount: Int { admission.waitingCount }

    /// Queues `transfer` (to `host`, the key its limit counts against) for addition, at `priority` (a higher value
    /// is admitted first) and with its own per-host `limit` (0: none). `id` is unique among the machine's transfers.
    mutating func submit(_ transfer: Transfer, id: Int, host: String, priority: Int = 0, limit: Int = 0) -> Action {
        guard phase != .stopped, !isOwnerReleased else { return .reject }
        admission.enqueue(transfer, id: id, host: host, priority: priority, limit: limit)
        let admitted = admit()
        if phase == .idle {
            phase = .running
            isWakeUpPending = false
            return .startLoop
        }
        return admitted ? requestWakeUp() : .none
    }

    /// Cancels transfer `id`. A transfer the loop hasn't taken yet is withdrawn (it never reaches curl); an
    /// active one is queued for removal; a completed or unknown one is ignored. A freed slot admits the next
    /// waiting transfer.
    mutating func cancel(_ id: Int) -> Action {
        if admission.withdraw(id) {
            return stopIfDone()
        }
        if admission.isAdmitted(id), !active.contains(id) {
            admission.release(id)
            return admit() ? requestWakeUp() : stopIfDone()
        }
        guard active.remove(id) != nil else { return .none }
        admission.release(id)
        _ = admit()
        pendingRemovals.append(id)
        return requestWakeUp()
    }

    /// Moves transfer `id`, while it waits for a slot, behind the transfers waiting at `priority`. A new priority
    /// frees no slot, so the loop has nothing new to do.
    mutating func setPriority(_ priority: Int, of id: Int) {
        admission.setPriority(priority, of: id)
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

    /// Takes the pending work for one turn of the loop (loop thread only) and marks the loop busy: until it
    /// calls ``willPoll()``, changes don't wake it. What the engine's loop calls.
    mutating func beginTurn() -> Iteration {
        let iteration = nextIteration()
        isLoopBusy = phase == .running
        return iteration
    }

    /// The loop is about to wait in `curl_multi_poll` (loop thread only). Returns `false` when work arrived since
    /// the turn began — transfers to add or remove, built responses, or the loop should stop — so the loop takes
    /// another turn instead; else `true`, and changes from now on wake it.
    mutating func willPoll() -> Bool {
        let hasWork =
            !pendingAdditions.isEmpty || !pendingRemovals.isEmpty || !builtResponses.isEmpty
            || (isDone && phase == .running)
        isLoopBusy = hasWork
        return !hasWork
    }

    /// Takes the pending work for one turn of the loop (loop thread only). Used alone (without ``beginTurn()``
    /// and ``willPoll()``), the machine assumes the loop may be polling at any time and asks for a wake-up on
    /// every change.
    mutating func nextIteration() -> Iteration {
        isWakeUpPending = false
        var iteration = Iteration()
        if !pendingAdditions.isEmpty {
            iteration.additions.reserveCapacity(pendingAdditions.count)
            for addition in pendingAdditions where admission.isAdmitted(addition.id) {
                active.insert(addition.id)
                iteration.additions.append(addition)
            }
            pendingAdditions.removeAll(keepingCapacity: true)
        }
        iteration.removals = pendingRemovals
        pendingRemovals.removeAll()
        if !builtResponses.isEmpty {
            iteration.responses = builtResponses
            builtResponses.removeAll()
        }
        if isDone, phase == .running {
            phase = .stopped
            iteration.shouldStop = true
        }
        return iteration
    }

    /// Transfer `id` finished inside curl (loop thread only); `hostMultiplexes` when it ran over HTTP/2, which
    /// raises its host's limit to ``streamsPerMultiplexingHost``. Returns `true` when the loop should take another
    /// turn at once instead of polling: a waiting transfer was admitted, or the owner is gone and this was the
    /// last transfer.
    mutating func didComplete(_ id: Int, hostMultiplexes: Bool = false) -> Bool {
        guard active.remove(id) != nil else { return false }
        admission.release(id, multiplexes: hostMultiplexes)
        let admitted = admit()
        return admitted || isDone
    }

    /// The loop sent `count` responses to be built (loop thread only). Until they are handed back the loop keeps
    /// running, even when the owner is gone and no transfer is left.
    mutating func willBuildResponses(count: Int) {
        responsesBeingBuilt += count
    }

    /// The builder finished responses announced with ``willBuildResponses(count:)``; the loop's next turn takes
    /// them. Returns ``Action/wakeUp`` when the loop waits in `poll` and no wake-up is on its way.
    mutating func didBuildResponses(_ responses: [(id: Int, response: Response)]) -> Action {
        responsesBeingBuilt -= responses.count
        builtResponses.append(contentsOf: responses)
        return requestWakeUp()
    }

    /// The owner is gone, no transfer is left, and no response is being built or waiting to be taken.
    private var isDone: Bool {
        isOwnerReleased && transferCount == 0 && responsesBeingBuilt == 0 && builtResponses.isEmpty
    }

    /// Moves every waiting transfer within the limits to `pendingAdditions`, in order; `true` if any moved.
    private mutating func admit() -> Bool {
        var admitted = false
        while let next = admission.admitNext() {
            pendingAdditions.append(next)
            admitted = true
        }
        return admitted
    }

    private mutating func requestWakeUp() -> Action {
        guard phase == .running, !isLoopBusy, !isWakeUpPending else { return .none }
        isWakeUpPending = true
        return .wakeUp
    }

    private mutating func stopIfDone() -> Action {
        guard isDone else { return .none }
        return requestWakeUp()
    }
}
