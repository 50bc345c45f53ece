/// Checks `condition` until it holds, suspending a millisecond between checks, for at most `timeout`; returns
/// whether it held. For state that another thread updates right after the event a test awaited (a callback that
/// runs before the bookkeeping that follows it), where checking at once would race. The default timeout is long
/// on purpose: a whole suite running in parallel on a small, loaded machine can delay any thread for seconds.
public func eventually(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        guard clock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
