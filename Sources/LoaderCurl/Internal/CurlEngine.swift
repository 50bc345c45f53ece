import NukeCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif
internal import CCurlShim
internal import CLibCurl

/// Drives one curl multi handle on its own thread: `poll` → `curl_multi_perform` → completions, woken by
/// `curl_multi_wakeup` when transfers are submitted or cancelled — but only while it waits in `poll`: a change
/// made while the loop is busy (from a callback on the loop thread itself, such as a completion that starts the
/// next load) is picked up by the check before the next poll, without a wake-up.
///
/// The first chunk of a transfer waits for its `HTTPURLResponse`, which a ``CurlResponseBuilder`` builds off this
/// thread from the status and raw header lines collected here; the loop delivers the chunk (and the completion,
/// if curl finished the transfer meanwhile) on its first turn after the response is back. The transfer's slot
/// under the connection limits is freed as soon as curl is done with it, so the next transfer doesn't wait for
/// the response.
///
/// The loop's bookkeeping is a ``CurlMultiStateMachine`` behind a lock; its actions (start the thread, wake the
/// loop) run after the lock is released. The thread starts with the first transfer and exits once the owning
/// ``CurlDataLoader`` is gone and its last transfer has finished, closing the multi handle and its connections
/// on the way out. Swift concurrency threads never wait for it:
/// submitting and cancelling only take the lock briefly.
final class CurlEngine: Sendable {
    private let state: LockedValueBox<CurlMultiStateMachine<CurlTransfer, HTTPURLResponse?>>
    private let multi: CurlMulti
    private let builder = CurlResponseBuilder()
    /// The handles of finished transfers, for the next ones (see ``CurlEasyPool``).
    let easyPool = CurlEasyPool(capacity: 16)
    private let lifecycle = LockedValueBox(Lifecycle())

    private struct Lifecycle {
        var loopThread: pthread_t?
        var isStopped = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    init(configuration: CurlDataLoader.Configuration) throws(CurlError) {
        multi = try CurlMulti(configuration: configuration)
        state = LockedValueBox(
            CurlMultiStateMachine(
                maximumPerHost: configuration.maximumConnectionsPerHost,
                maximumTotal: configuration.maximumConnections))
    }

    /// Hands `transfer` to the loop, admitted at `priority` under its own per-host `limit` too (0: none); its
    /// callbacks run on the loop thread.
    func submit(_ transfer: CurlTransfer, priority: Int = 0, limit: Int = 0) {
        let action = state.withLock {
            $0.submit(transfer, id: transfer.id, host: transfer.hostKey, priority: priority, limit: limit)
        }
        perform(action)
        if action == .reject {
            transfer.complete(with: .invalidRequest(reason: "the loader was released", url: transfer.url))
        }
    }

    /// Stops transfer `id` promptly: withdrawn if curl doesn't have it yet, else removed from the multi handle.
    func cancel(id: Int) {
        perform(state.withLock { $0.cancel(id) })
    }

    /// Moves transfer `id`, while it waits for a slot, behind those waiting at `priority`.
    func setPriority(_ priority: Int, of id: Int) {
        state.withLock { $0.setPriority(priority, of: id) }
    }

    /// The loader is gone: finish the running transfers, then stop the thread.
    func releaseOwner() {
        let (action, neverStarted) = state.withLock { state in
            let neverStarted = state.phase == .idle
            return (state.releaseOwner(), neverStarted)
        }
        perform(action)
        if neverStarted {
            multi.close()
            markStopped()
        }
    }

    /// The number of transfers submitted and not yet finished or cancelled.
    var transferCount: Int { state.withLock { $0.transferCount } }

    /// The number of transfers waiting for a slot under the configured limits.
    var waitingCount: Int { state.withLock { $0.waitingCount } }

    /// Suspends until the loop thread has exited (for tests).
    func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isStopped = lifecycle.withLock { lifecycle in
                if !lifecycle.isStopped { lifecycle.waiters.append(continuation) }
                return lifecycle.isStopped
            }
            if isStopped { continuation.resume() }
        }
    }

    private func perform(_ action: CurlMultiStateMachine<CurlTransfer, HTTPURLResponse?>.Action) {
        switch action {
        case .none, .reject:
            break
        case .wakeUp:
            multi.wakeUp()
        case .startLoop:
            let thread = Thread { [self] in
                // Set from inside: on Linux, naming a Thread before it starts doesn't reach the pthread.
                Thread.current.name = "nuke.curl-multi"
                runLoop()
            }
            thread.start()
        }
    }

    // MARK: The loop thread

    /// The loop thread, once it runs (for tests).
    var loopThread: pthread_t? { lifecycle.withLock { $0.loopThread } }

    private func runLoop() {
        lifecycle.withLock { $0.loopThread = pthread_self() }
        var loop = LoopState(pool: easyPool)
        while true {
            let iteration = state.withLock { $0.beginTurn() }
            for (id, response) in iteration.responses {
                loop.deliver(response, to: id)
            }
            for id in iteration.removals {
                loop.remove(id, from: multi)
            }
            var failed: [(CurlTransfer, CurlError)] = []
            for (_, transfer) in iteration.additions {
                if let error = loop.add(transfer, to: multi) { failed.append((transfer, error)) }
            }
            if iteration.shouldStop { break }
            var turnAgain = false
            for (transfer, error) in failed {
                turnAgain = state.withLock { $0.didComplete(transfer.id) } || turnAgain
                transfer.complete(with: error)
                loop.recycle(transfer)
            }
            multi.perform()
            requestResponses(for: loop.flushList.flushAll(), loop: &loop)
            for (handle, result) in multi.completedTransfers() {
                guard let transfer = loop.take(handle, from: multi) else { continue }
                let multiplexes = transfer.showsMultiplexingHost
                turnAgain = state.withLock { $0.didComplete(transfer.id, hostMultiplexes: multiplexes) } || turnAgain
                if transfer.isWaitingForResponse {
                    transfer.deferFinish(result: result)  // completes once its response is back
                } else {
                    transfer.finish(result: result)
                    loop.recycle(transfer)
                }
            }
            if !turnAgain, state.withLock({ $0.willPoll() }) { multi.poll() }
        }
        multi.close()
        markStopped()
    }

    /// Sends the responses of `transfers` (whose bytes wait for them) to the builder, in one batch; the loop keeps
    /// the transfers until the responses come back through ``CurlMultiStateMachine/didBuildResponses(_:)``.
    private func requestResponses(for transfers: [CurlTransfer], loop: inout LoopState) {
        guard !transfers.isEmpty else { return }
        var batch: [CurlResponseParts] = []
        batch.reserveCapacity(transfers.count)
        for transfer in transfers where !transfer.isResponseRequested {
            transfer.isResponseRequested = true
            guard let parts = transfer.responseParts else {
                transfer.flush(buildingResponse: true)
                continue
            }
            batch.append(parts)
            loop.awaitResponse(for: transfer)
        }
        guard !batch.isEmpty else { return }
        state.withLock { $0.willBuildResponses(count: batch.count) }
        builder.build(batch) { [self] responses in
            perform(state.withLock { $0.didBuildResponses(responses) })
        }
    }

    private func markStopped() {
        let waiters = lifecycle.withLock { lifecycle in
            lifecycle.isStopped = true
            defer { lifecycle.waiters.removeAll() }
            return lifecycle.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// The transfers inside the multi handle; owned by the loop thread.
private struct LoopState {
    let flushList = CurlFlushList()
    /// Where handles go once their transfers are done with them.
    let pool: CurlEasyPool
    private var transfers: [Int: CurlTransfer] = [:]
    private var ids: [UnsafeMutableRawPointer: Int] = [:]
    /// Transfers whose bytes (and maybe completion) wait for the response being built, in curl or not.
    private var awaitingResponse: [Int: CurlTransfer] = [:]

    init(pool: CurlEasyPool) {
        self.pool = pool
    }

    /// Keeps `transfer` until its response comes back (``deliver(_:to:)``).
    mutating func awaitResponse(for transfer: CurlTransfer) {
        awaitingResponse[transfer.id] = transfer
    }

    /// The response of transfer `id` is built: delivers the bytes that waited for it, and completes the transfer
    /// (and recycles its handle) if curl finished it meanwhile.
    mutating func deliver(_ response: HTTPURLResponse?, to id: Int) {
        guard let transfer = awaitingResponse.removeValue(forKey: id) else { return }
        if transfer.response == nil { transfer.response = response }
        transfer.flush(buildingResponse: true)
        if transfer.finishDeferred() { recycle(transfer) }
    }

    /// Gives the handle of a transfer that is out of curl and done with it back to the pool.
    func recycle(_ transfer: CurlTransfer) {
        guard let easy = transfer.takeEasy() else { return }
        pool.recycle(easy)
    }

    /// Adds the transfer to curl, or returns why it can't run.
    mutating func add(_ transfer: CurlTransfer, to multi: CurlMulti) -> CurlError? {
        if let error = transfer.setupError { return error }
        guard let easy = transfer.easy else {
            return .invalidRequest(reason: "no curl handle", url: transfer.url)
        }
        let code = multi.add(easy)
        guard code == CURLM_OK else {
            let message = curl_multi_strerror(code).map { String(cString: $0) } ?? "curl_multi_add_handle failed"
            return .transferFailed(code: .init(rawValue: Int(code.rawValue)), message: message, url: transfer.url)
        }
        transfer.flushList = flushList
        transfers[transfer.id] = transfer
        ids[easy.handle] = transfer.id
        return nil
    }

    /// Removes a cancelled transfer from curl (if it is still there) and drops it.
    mutating func remove(_ id: Int, from multi: CurlMulti) {
        guard let transfer = transfers.removeValue(forKey: id), let easy = transfer.easy else { return }
        ids[easy.handle] = nil
        multi.remove(easy)
        recycle(transfer)
    }

    /// Removes a finished transfer from curl and returns it.
    mutating func take(_ handle: UnsafeMutableRawPointer, from multi: CurlMulti) -> CurlTransfer? {
        guard let id = ids.removeValue(forKey: handle), let transfer = transfers.removeValue(forKey: id),
            let easy = transfer.easy
        else { return nil }
        multi.remove(easy)
        return transfer
    }
}
