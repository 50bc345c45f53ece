import Foundation

/// Admission of work that makes results: at most `workers` at once, at most `queueLimit` more waiting in order;
/// anything beyond is refused at once (the service answers 429), so a burst can't grow memory without bound.
final class WorkGate: @unchecked Sendable {
    // @unchecked: `running` and `waiting` are read and written only while `lock` is held.
    let workers: Int
    let queueLimit: Int
    private let lock = NSLock()
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

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

    /// Runs `work` once a worker is free; returns `nil` without running it when the queue is full.
    func run<T: Sendable>(_ work: @Sendable () async -> T) async -> T? {
        let admission: Admission = lock.withLock {
            if running < workers {
                running += 1
                return .now
            }
            return waiting.count < queueLimit ? .wait : .refuse
        }
        switch admission {
        case .refuse:
            return nil
        case .wait:
            // The slot is handed over by the finishing work (running stays counted), so no one overtakes.
            await withCheckedContinuation { continuation in
                let admitted = lock.withLock {
                    if running < workers {
                        running += 1
                        return true
                    }
                    waiting.append(continuation)
                    return false
                }
                if admitted { continuation.resume() }
            }
        case .now:
            break
        }
        let result = await work()
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiting.isEmpty {
                running -= 1
                return nil
            }
            return waiting.removeFirst()
        }
        next?.resume()
        return result
    }
}
