import NukeCore
import Foundation

extension DataCache {
    private enum StagingOutcome {
        case staged
        /// Staging it would go over the limit.
        case full
        /// It alone is over the limit.
        case tooLarge
    }

    /// Stages `change` for `key` and schedules a flush; if staged changes would then hold more than
    /// ``stagingLimit`` bytes, applies back-pressure first (see there). `key` is canonical.
    func stage(_ change: Staging.Change, for key: String) {
        if tryStage(change, for: key) != .staged {
            // On the flush queue: waits for a flush in progress, and no background flush runs until this returns.
            queue.sync {
                while true {
                    switch tryStage(change, for: key) {
                    case .staged:
                        return
                    case .full:
                        // Ends with fewer staged bytes: the flush forgets every change it took, written or failed.
                        performFlush(for: nil)
                    case .tooLarge:
                        writeThrough(change, for: key)
                        return
                    }
                }
            }
        }
        scheduleFlush()
    }

    private func tryStage(_ change: Staging.Change, for key: String) -> StagingOutcome {
        state.withLock { state in
            guard Staging.cost(of: change, for: key) <= state.stagingLimit else { return .tooLarge }
            guard state.staging.byteCount(staging: change, for: key) <= state.stagingLimit else { return .full }
            state.staging.stage(change, for: key)
            return .staged
        }
    }

    /// Writes `change` for `key` to the directory without staging it, after the staged changes that must go
    /// first (the key's own, and a `removeAll`). Runs on `queue`.
    private func writeThrough(_ change: Staging.Change, for key: String) {
        performFlush(for: key)
        // Sequence 0 is never staged: writing this batch leaves changes staged meanwhile in place.
        let item = Staging.Item(change: change, sequence: 0)
        write(Staging.Batch(removeAllSequence: nil, items: [(key, item)]), accesses: [:])
    }
}
