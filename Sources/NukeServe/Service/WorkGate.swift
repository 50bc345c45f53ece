import Foundation

/// Admission of work that makes results: at most `workers` at once, at most `queueLimit` more waiting in order, each
/// for at most a given time; anything beyond is refused at once (the service answers 429), so a burst can't grow
/// memory or latency without bound.
final class WorkGate: @unchecked Sendable {
    // @unchecked: `running`, `waiting`, `reservations` and `nextID` are read and written only while `lock` is held.
    let workers: Int
    let queueLimit: Int
    private let lock = NSLock()
    private var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    /// Work admitted to wait but not in ``waiting`` yet, by id, and whether its time ran out meanwhile. Admitting
    /// and queueing are two steps: the place is taken at admission, so a burst can't all be admitted against the
    /// same free places and queue beyond ``queueLimit``.
    private var reservations: [UInt64: Bool] = [:]
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
        case now, wait(id: UInt64), refuse
    }

    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    /// Work running and waiting (queued, or admitted to the queue and on its way there).
    var load: (running: Int, waiting: Int) {
        lock.withLock { (running, waiting.count + reservations.count) }
    }

    /// Runs `work` once a worker is free, waiting at most `limit` seconds for one.
    func run<T: Sendable>(waitingAtMost limit: Double, _ work: @Sendable () async -> T) async -> Outcome<T> {
        let admission: Admission = lock.withLock {
            if running < workers {
                running += 1
                return .now
            }
            guard waiting.count + reservations.count < queueLimit else { return .refuse }
            nextID += 1
            reservations[nextID] = false
            return .wait(id: nextID)
        }
        switch admission {
        case .refuse:
            return .queueFull
        case let .wait(id):
            // A finishing worker hands its slot over (running stays counted), so no one overtakes; a waiter whose
            // time runs out leaves the queue.
            let timer = Task {
                guard (try? await Task.sleep(for: .seconds(limit))) != nil else { return }
                expire(id)
            }
            let admitted = await withCheckedContinuation { continuation in
                let now: Bool? = lock.withLock {
                    if reservations.removeValue(forKey: id) == true { return false }  // Its time ran out already.
                    if running < workers {
                        running += 1
                        return true
                    }
                    waiting.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
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

    /// Takes the waiter `id` out of the queue, if it is still there, and tells it it wasn't admitted; a waiter not
    /// queued yet is told so when it gets there.
    private func expire(_ id: UInt64) {
        let continuation: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard let index = waiting.firstIndex(where: { $0.id == id }) else {
                if reservations[id] != nil { reservations[id] = true }
                return nil
            }
            return waiting.remove(at: index).continuation
        }
        continuation?.resume(returning: false)
    }
}
