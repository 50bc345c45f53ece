import Foundation

/// Admission of work that makes results: at most `workers` at once, at most `queueLimit` more waiting in order, each
/// for at most a given time; anything beyond is refused at once (the service answers 429), so a burst can't grow
/// memory or latency without bound.
final class WorkGate: @unchecked Sendable {
    // @unchecked: `running`, `waiting` and `nextID` are read and written only while `lock` is held.
    let workers: Int
    let queueLimit: Int
    private let lock = NSLock()
    private var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    /// What became of work given to ``run(waitingAtMost:_:)``.
    enum Outcome<T: Sendable>: Sendable {
        /// It ran and returned this.
        case ran(T)
        /// The queue was full: it didn't run.
        case queueFull
        /// No worker was free within the time it could wait: it didn't run.
        case waitedTooLong
    }

    private enum Admission {
        case now, wait, refuse
    }

    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    /// Work running and waiting.
    var load: (running: Int, waiting: Int) {
        lock.withLock { (running, waiting.count) }
    }

    /// Runs `work` once a worker is free, waiting at most `limit` seconds for one.
    func run<T: Sendable>(waitingAtMost limit: Double, _ work: @Sendable () async -> T) async -> Outcome<T> {
        let admission: Admission = lock.withLock {
            if running < workers {
                running += 1
                return .now
            }
            return waiting.count < queueLimit ? .wait : .refuse
        }
        switch admission {
        case .refuse:
            return .queueFull
        case .wait:
            // A finishing worker hands its slot over (running stays counted), so no one overtakes; a waiter whose
            // time runs out leaves the queue.
            let id: UInt64 = lock.withLock {
                nextID += 1
                return nextID
            }
            let timer = Task {
                try? await Task.sleep(for: .seconds(limit))
                expire(id)
            }
            let admitted = await withCheckedContinuation { continuation in
                let now = lock.withLock {
                    if running < workers {
                        running += 1
                        return true
                    }
                    waiting.append((id, continuation))
                    return false
                }
                if now { continuation.resume(returning: true) }
            }
            timer.cancel()
            guard admitted else { return .waitedTooLong }
        case .now:
            break
        }
        let result = await work()
        let next: CheckedContinuation<Bool, Never>? = lock.withLock {
            if waiting.isEmpty {
                running -= 1
                return nil
            }
            return waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
        return .ran(result)
    }

    /// Takes the waiter `id` out of the queue, if it is still there, and tells it it wasn't admitted.
    private func expire(_ id: UInt64) {
        let continuation: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return waiting.remove(at: index).continuation
        }
        continuation?.resume(returning: false)
    }
}
