import NukeCore
internal import CCurlShim
internal import CLibCurl

/// The one owner of the `CURLM *` multi handle (and so of the connection cache); frees it with
/// `curl_multi_cleanup` in ``close()`` — called by the loop thread when it stops — or in `deinit`.
///
/// All calls except ``wakeUp()`` happen on the loop thread. ``wakeUp()`` (`curl_multi_wakeup`, which curl makes
/// thread-safe) may come from any thread, even after the loop stopped, so it and ``close()`` share a lock.
final class CurlMulti: @unchecked Sendable {
    // @unchecked: the handle is used only by the loop thread, except in `wakeUp()`, which takes `lifetime`,
    // as does `close()`, so a wake-up never touches a freed handle.
    let handle: UnsafeMutableRawPointer
    private let lifetime = LockedValueBox(true)

    init(configuration: CurlDataLoader.Configuration) throws(CurlError) {
        try CurlGlobal.ensureInitialized()
        guard let handle = curl_multi_init() else {
            throw .transferFailed(code: .init(rawValue: 2), message: "curl_multi_init failed", url: nil)
        }
        self.handle = handle
        // Connection limits are enforced by CurlMultiStateMachine (curl's own queue can strand transfers).
        let multiplex = configuration.isMultiplexingEnabled ? Int(CURLPIPE_MULTIPLEX) : Int(CURLPIPE_NOTHING)
        _ = CCurlShim_multi_setopt_long(handle, CCurlShim_MOPT_PIPELINING, multiplex)
    }

    deinit {
        close()
    }

    /// Frees the handle, closing every cached connection. Call when no easy handle is attached any more.
    func close() {
        lifetime.withLock { isOpen in
            guard isOpen else { return }
            isOpen = false
            curl_multi_cleanup(handle)
        }
    }

    func add(_ easy: CurlEasy) -> CURLMcode {
        curl_multi_add_handle(handle, easy.handle)
    }

    func remove(_ easy: CurlEasy) {
        // Fails only for handles that aren't in this multi, which the loop never asks for.
        _ = curl_multi_remove_handle(handle, easy.handle)
    }

    /// Runs every transfer as far as it can go without blocking; calls the transfers' callbacks.
    func perform() {
        var running: Int32 = 0
        _ = curl_multi_perform(handle, &running)
    }

    /// Finished transfers since the last call: each easy handle with its result.
    func completedTransfers() -> [(easy: UnsafeMutableRawPointer, result: CURLcode)] {
        var completed: [(UnsafeMutableRawPointer, CURLcode)] = []
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(handle, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            completed.append((easy, CCurlShim_message_result(message)))
        }
        return completed
    }

    /// Waits for socket activity, curl's next timer, or ``wakeUp()``, whichever comes first.
    func poll() {
        _ = curl_multi_poll(handle, nil, 0, 60_000, nil)
    }

    /// Makes a running or the next ``poll()`` return at once. Safe from any thread.
    func wakeUp() {
        lifetime.withLock { isOpen in
            guard isOpen else { return }
            _ = curl_multi_wakeup(handle)
        }
    }
}
