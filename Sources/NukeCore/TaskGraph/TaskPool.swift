/// Shares tasks between equivalent requests: one live task per key.
final class TaskPool<Key: Hashable, PooledTask: PoolableTask> {
    private let isCoalescingEnabled: Bool
    private let onJoin: @Sendable () -> Void
    private var tasks: [Key: PooledTask] = [:]

    /// - Parameter onJoin: Called each time a caller gets a task that was already live.
    init(isCoalescingEnabled: Bool, onJoin: @escaping @Sendable () -> Void = {}) {
        self.isCoalescingEnabled = isCoalescingEnabled
        self.onJoin = onJoin
    }

    /// The number of live shared tasks.
    var count: Int { tasks.count }

    /// Returns the live task for `key`, or makes one that leaves the pool when it is disposed.
    func task(for key: @autoclosure () -> Key, make: () -> PooledTask) -> PooledTask {
        guard isCoalescingEnabled else {
            return make()
        }
        let key = key()
        if let task = tasks[key] {
            onJoin()
            return task
        }
        let task = make()
        tasks[key] = task
        task.onDisposed = { [self, task] in
            guard tasks[key] === task else { return }
            self.tasks[key] = nil
        }
        return task
    }
}

/// A task a ``TaskPool`` can hold.
protocol PoolableTask: AnyObject {
    var onDisposed: (() -> Void)? { get set }
}

extension PipelineTask: PoolableTask {}
