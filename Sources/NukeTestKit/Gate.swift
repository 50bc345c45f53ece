import NukeCore
/// A gate: tasks await ``wait()`` until someone calls ``open()``; waits after ``open()`` return immediately.
///
/// Use it to make tests deterministic without sleeps, e.g. to hold a data closure or a processor until the
/// test has checked an intermediate state. A gate never closes again once open.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValueBox(State())

    /// Creates a closed gate.
    public init() {}

    /// Suspends until the gate is open; returns at once if it already is. Ignores task cancellation: a
    /// cancelled task keeps waiting until ``open()``.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Opens the gate and resumes every waiting task. Calling it again does nothing.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// `true` once ``open()`` has been called.
    public var isOpen: Bool {
        state.withLock { $0.isOpen }
    }
}
