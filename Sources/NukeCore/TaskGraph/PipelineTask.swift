/// Progress of a task: bytes received so far and the expected total (0 when unknown).
struct TaskProgress: Hashable, Sendable {
    var completed: Int64
    var total: Int64
}

/// A unit of shared work in the pipeline's task graph (load data, decode, process).
///
/// A task starts when its first subscriber arrives and delivers its events to every subscriber. Its priority
/// is the highest of its subscribers' and flows down to its dependency and its queued operation. When the
/// last subscriber leaves before the task finishes, the task is cancelled: it stops its running operation and
/// leaves its dependency, which in turn is cancelled if nobody else needs it. A finished or cancelled task is
/// disposed: it delivers nothing more and is removed from its pool.
class PipelineTask<Value: Sendable>: AnyPipelineTask, @unchecked Sendable {
    // @unchecked: a task is touched only by the jobs of its pipeline's mailbox, one at a time.
    enum Event {
        case value(Value, isCompleted: Bool)
        case progress(TaskProgress)
        case error(ImagePipeline.Error)
    }

    typealias Handler = (Event) -> Void

    private struct Subscriber {
        let id: Int
        var priority: ImageRequest.Priority
        let owner: TaskOwner
        let handler: Handler
    }

    private var subscribers = SmallList<Subscriber>()
    private var nextSubscriberID = 0
    private var isStarted = false

    /// `true` once the task finished, failed or was cancelled.
    private(set) var isDisposed = false

    /// The highest priority among the subscribers.
    private(set) var priority: ImageRequest.Priority = .normal

    /// The queued or running operation of this task; it follows the task's priority and is cancelled with it.
    var operation: TaskQueue.Operation? {
        didSet { adopt(operation) }
    }

    /// The queued or running preview operation of this task (a progressive decode, or processing a preview): like
    /// ``operation``, it follows the task's priority, and it is cancelled when the task is disposed.
    var previewOperation: TaskQueue.Operation? {
        didSet { adopt(previewOperation) }
    }

    /// Makes a newly set operation follow the task: its priority, or a cancel if the task is already disposed.
    private func adopt(_ operation: TaskQueue.Operation?) {
        guard let operation else { return }
        if isDisposed {
            operation.cancel()
        } else {
            operation.priority = priority
        }
    }

    /// Called when the task is cancelled, to stop work that isn't a queue operation (a load, a decode).
    var onCancelled: (() -> Void)?

    /// Called once when the task is disposed, to remove it from its pool.
    var onDisposed: (() -> Void)?

    private var dependency: TaskSubscription?

    init() {}

    /// Starts the work; called once, when the first subscriber arrives.
    func start() {}

    /// Subscribes to another task, which becomes this task's dependency at this task's priority.
    final func subscribe<T>(to task: PipelineTask<T>, _ handler: @escaping PipelineTask<T>.Handler) {
        let subscription = task.subscribe(priority: priority, owner: .task(self), handler)
        if isDisposed {
            subscription?.unsubscribe()  // Disposed synchronously by the first event.
        } else {
            dependency = subscription
        }
    }

    /// Adds a subscriber and starts the task if it is the first one.
    ///
    /// Returns `nil` if the task is already disposed, including when it finished synchronously while
    /// starting (the handler has then received the final event).
    final func subscribe(
        priority: ImageRequest.Priority,
        owner: TaskOwner,
        _ handler: @escaping Handler
    ) -> TaskSubscription? {
        guard !isDisposed else { return nil }
        let id = nextSubscriberID
        nextSubscriberID += 1
        subscribers.append(Subscriber(id: id, priority: priority, owner: owner, handler: handler))
        updatePriority()
        if !isStarted {
            isStarted = true
            start()
        }
        guard !isDisposed else { return nil }
        return TaskSubscription(task: self, id: id)
    }

    final func unsubscribe(id: Int) {
        guard subscribers.remove(where: { $0.id == id }) else { return }
        if subscribers.isEmpty {
            cancel()
        } else {
            updatePriority()
        }
    }

    final func setPriority(_ priority: ImageRequest.Priority, id: Int) {
        guard subscribers.update(where: { $0.id == id }, { $0.priority = priority }) else { return }
        updatePriority()
    }

    private func updatePriority() {
        guard let newPriority = subscribers.max(of: \.priority), newPriority != priority else { return }
        priority = newPriority
        operation?.priority = newPriority
        previewOperation?.priority = newPriority
        dependency?.setPriority(newPriority)
        didChangePriority()
    }

    /// Called when the task's ``priority`` changed (after its operations and dependency follow it), to pass it to
    /// work that isn't a queue operation (a load its loader admits).
    func didChangePriority() {}

    /// Called once when the task is cancelled (its last subscriber left before it finished), before its
    /// operation is cancelled, to stop work that isn't a queue operation.
    func didCancel() {}

    /// Called once when the task is disposed (finished, failed or cancelled), after its preview operation was
    /// cancelled, to drop what else isn't needed any more.
    func didDispose() {}

    /// The requests of the public tasks (image and data tasks) that wait for this task, directly or through
    /// other tasks.
    var publicRequests: [ImageRequest] {
        var requests: [ImageRequest] = []
        subscribers.forEach { subscriber in
            switch subscriber.owner {
            case let .request(request): requests.append(request)
            case let .task(task): requests += task.publicRequests
            }
        }
        return requests
    }

    /// `true` if a public task subscribed to this task itself (not through another task).
    var hasDirectSubscriber: Bool {
        subscribers.contains { if case .request = $0.owner { true } else { false } }
    }

    // MARK: Sending events

    /// Delivers a value; a completed value finishes the task.
    final func send(value: Value, isCompleted: Bool) {
        deliver(.value(value, isCompleted: isCompleted), isTerminal: isCompleted)
    }

    /// Fails the task.
    final func send(error: ImagePipeline.Error) {
        deliver(.error(error), isTerminal: true)
    }

    /// Reports progress.
    final func send(progress: TaskProgress) {
        deliver(.progress(progress), isTerminal: false)
    }

    private func deliver(_ event: Event, isTerminal: Bool) {
        guard !isDisposed else { return }
        if let handler = subscribers.onlyElement?.handler {
            // The common case, without copying the handlers into an array.
            if isTerminal {
                subscribers.removeAll()
                dispose()
            }
            return handler(event)
        }
        var handlers: [Handler] = []
        subscribers.forEach { handlers.append($0.handler) }
        if isTerminal {
            // Leave the pool first, so a subscriber that asks for the same work again gets a new task.
            subscribers.removeAll()
            dispose()
        }
        for handler in handlers {
            handler(event)
        }
    }

    private func cancel() {
        guard !isDisposed else { return }
        didCancel()
        onCancelled?()
        operation?.cancel()
        dispose()
    }

    private func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        onCancelled = nil
        let dependency = self.dependency
        self.dependency = nil
        dependency?.unsubscribe()
        previewOperation?.cancel()
        previewOperation = nil
        didDispose()
        onDisposed?()
        onDisposed = nil
    }
}

/// The type-erased side of a task that subscriptions talk to.
protocol AnyPipelineTask: AnyObject, Sendable {
    func unsubscribe(id: Int)
    func setPriority(_ priority: ImageRequest.Priority, id: Int)
    var publicRequests: [ImageRequest] { get }
}

/// Who subscribed to a task: a public task (with its request) or another task of the graph.
enum TaskOwner {
    case request(ImageRequest)
    case task(any AnyPipelineTask)
}

/// One subscriber's hold on a task.
struct TaskSubscription {
    let task: any AnyPipelineTask
    let id: Int

    /// Leaves the task; the last subscriber to leave cancels it.
    func unsubscribe() { task.unsubscribe(id: id) }

    /// Changes this subscriber's priority.
    func setPriority(_ priority: ImageRequest.Priority) { task.setPriority(priority, id: id) }
}
