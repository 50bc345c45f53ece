import NukeCore
public import Foundation

extension DataCache {
    /// The default ``sweepInterval``: 30 minutes, as in Nuke.
    public static let defaultSweepInterval: TimeInterval = 1800

    /// How often, in seconds, the cache runs ``sweep()`` on its own in the background (default 1800, 30 minutes).
    ///
    /// The first periodic sweep runs one interval after the cache is created, or after this property or
    /// ``isSweepEnabled`` last changed; each sweep schedules the next. Sweeps run on ``queue`` and stop when the
    /// cache is deallocated (the schedule holds no strong reference to it). Values below 1 ms count as 1 ms.
    public var sweepInterval: TimeInterval {
        get { state.withLock { $0.sweepInterval } }
        set {
            state.withLock { $0.sweepInterval = newValue.isNaN ? DataCache.defaultSweepInterval : newValue }
            scheduleSweep()
        }
    }

    /// Whether the periodic sweep runs (default `true`). Turning it off cancels the scheduled sweep; ``sweep()``
    /// and trimming after a flush goes over ``sizeLimit`` still work.
    public var isSweepEnabled: Bool {
        get { state.withLock { $0.isSweepEnabled } }
        set {
            state.withLock { $0.isSweepEnabled = newValue }
            scheduleSweep()
        }
    }

    /// Periodic sweeps run so far (a test hook).
    var periodicSweepCount: Int {
        state.withLock { $0.periodicSweepCount }
    }

    /// Replaces the scheduled periodic sweep, if any, with one ``sweepInterval`` from now (if enabled).
    func scheduleSweep() {
        let schedule = state.withLock { state -> (generation: Int, interval: TimeInterval)? in
            state.sweepGeneration += 1
            guard state.isSweepEnabled else { return nil }
            return (state.sweepGeneration, state.sweepInterval)
        }
        guard let schedule else { return }
        scheduleSweep(generation: schedule.generation, after: schedule.interval)
    }

    private func scheduleSweep(generation: Int, after interval: TimeInterval) {
        let nanoseconds = Int(min(max(interval, 0.001), 1e9) * 1e9)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            self?.periodicSweep(generation: generation)
        }
    }

    /// Runs on `queue`: sweeps and schedules the next sweep, unless the schedule changed meanwhile.
    private func periodicSweep(generation: Int) {
        let interval = state.withLock { state -> TimeInterval? in
            guard state.isSweepEnabled, state.sweepGeneration == generation else { return nil }
            return state.sweepInterval
        }
        guard let interval else { return }
        performSweep()
        state.withLock { $0.periodicSweepCount += 1 }
        scheduleSweep(generation: generation, after: interval)
    }
}
