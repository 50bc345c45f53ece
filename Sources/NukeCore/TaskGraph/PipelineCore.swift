import Foundation

/// The pipeline's task graph: the pools of shared tasks and the subscriptions of the public tasks.
///
/// The graph's state (the pools, ``activeTasks`` and every ``PipelineTask``) is touched only by jobs of
/// ``mailbox``, which run one at a time in the order they were posted; everything from outside arrives as such a
/// job. The `let` properties are safe from any thread.
final class PipelineCore: @unchecked Sendable {
    // @unchecked: the mutable state is confined to the mailbox's jobs (see above).
    let configuration: ImagePipeline.Configuration
    let mailbox = Mailbox()
    let delegate: any ImagePipeline.Delegate
    /// `false` for the default delegate, whose every answer is the configuration's.
    let hasCustomDelegate: Bool
    let resumableData: ResumableDataStorage
    let pendingEncodes = WorkCounter()
    let decodingBacklog: ByteBudget
    let statistics = LockedValueBox(ImagePipeline.Statistics())
    private let pipelineReference = LockedValueBox(WeakPipeline())

    private let loadImageTasks: TaskPool<LoadKey, TaskLoadImage>
    private let originalImageTasks: TaskPool<ImageKey, TaskFetchOriginalImage>
    private let originalDataTasks: TaskPool<DataKey, TaskFetchOriginalData>
    let rateLimiter: RateLimiter?

    /// A public task's hold on the graph, and how to end it from here.
    private struct ActiveTask {
        var subscription: TaskSubscription?
        /// Keeps the pipeline (and so the delegate's per-request choices) alive while the task runs.
        let pipeline: ImagePipeline
        let fail: (ImagePipeline.Error) -> Void
    }

    private var activeTasks: [ObjectIdentifier: ActiveTask] = [:]
    private var isInvalidated = false

    init(configuration: ImagePipeline.Configuration, delegate: (any ImagePipeline.Delegate)?) {
        self.configuration = configuration
        self.delegate = delegate ?? DefaultPipelineDelegate()
        self.hasCustomDelegate = !(self.delegate is DefaultPipelineDelegate)
        self.resumableData = ResumableDataStorage(costLimit: configuration.resumableDataCostLimit)
        self.decodingBacklog = ByteBudget(limit: configuration.decodingBacklogLimit)
        let coalescing = configuration.isTaskCoalescingEnabled
        let statistics = self.statistics
        let onJoin: @Sendable () -> Void = { statistics.withLock { $0.coalescedJoins += 1 } }
        loadImageTasks = TaskPool(isCoalescingEnabled: coalescing, onJoin: onJoin)
        originalImageTasks = TaskPool(isCoalescingEnabled: coalescing, onJoin: onJoin)
        originalDataTasks = TaskPool(isCoalescingEnabled: coalescing, onJoin: onJoin)
        let mailbox = self.mailbox
        rateLimiter =
            configuration.isRateLimiterEnabled
            ? RateLimiter(
                now: configuration.rateLimiterClock,
                schedule: { delay, body in
                    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { mailbox.post(body) }
                }) : nil
    }

    /// The pipeline that owns the core; `nil` once it is gone (then delegate calls are skipped).
    var pipeline: ImagePipeline? {
        get { pipelineReference.withLock { $0.value } }
        set { pipelineReference.withLock { $0.value = newValue } }
    }

    // MARK: Public tasks

    /// Starts an image task (unless it was cancelled before it got here).
    func start(_ task: ImageTask, pipeline: ImagePipeline) {
        guard !task.isFinished else { return }
        guard !isInvalidated else {
            task.finish(with: .failure(.pipelineInvalidated))
            didFinish(task, with: .failure(.pipelineInvalidated))
            return
        }
        if hasCustomDelegate { delegate.imageTaskDidStart(task, pipeline: pipeline) }
        let id = ObjectIdentifier(task)
        activeTasks[id] = ActiveTask(
            subscription: nil,
            pipeline: pipeline,
            fail: { [self] error in
                if task.finish(with: .failure(error)) { self.didFinish(task, with: .failure(error)) }
            })
        let job = makeTaskLoadImage(for: task.request)
        let subscription = job.subscribe(priority: task.priority, owner: .request(task.request)) {
            [self] event in
            self.handle(event, for: task, id: id)
        }
        attach(subscription, to: id)
    }

    private func handle(_ event: PipelineTask<ImageResponse>.Event, for task: ImageTask, id: ObjectIdentifier) {
        switch event {
        case let .value(response, isCompleted):
            var response = response
            response.request = task.request
            let ticket = response.backlogTicket
            response.backlogTicket = nil
            if isCompleted {
                activeTasks[id] = nil
                if task.finish(with: .success(response), holding: ticket) {
                    didFinish(task, with: .success(response))
                }
            } else {
                task.deliver(.preview(response))
                if hasCustomDelegate, let pipeline {
                    delegate.imageTask(task, didReceivePreview: response, pipeline: pipeline)
                    delegate.imageTask(task, didReceiveEvent: .preview(response), pipeline: pipeline)
                }
            }
        case let .progress(value):
            let progress = ImageTask.Progress(completed: value.completed, total: value.total)
            task.deliver(.progress(progress))
            if hasCustomDelegate, let pipeline {
                delegate.imageTask(task, didUpdateProgress: progress, pipeline: pipeline)
                delegate.imageTask(task, didReceiveEvent: .progress(progress), pipeline: pipeline)
            }
        case let .error(error):
            activeTasks[id] = nil
            if task.finish(with: .failure(error)) { didFinish(task, with: .failure(error)) }
        }
    }

    private func didFinish(_ task: ImageTask, with result: Result<ImageResponse, ImagePipeline.Error>) {
        guard hasCustomDelegate, let pipeline else { return }
        delegate.imageTask(task, didCompleteWithResult: result, pipeline: pipeline)
        delegate.imageTask(task, didReceiveEvent: .finished(result), pipeline: pipeline)
    }

    /// Tells the delegate about a new task.
    func didCreate(_ task: ImageTask) {
        if hasCustomDelegate, let pipeline { delegate.imageTaskCreated(task, pipeline: pipeline) }
    }

    /// Starts a data task (unless it was cancelled before it got here).
    func start(_ task: DataTask, pipeline: ImagePipeline) {
        guard !task.isFinished else { return }
        guard !isInvalidated else {
            task.finish(with: .failure(.pipelineInvalidated))
            return
        }
        let id = ObjectIdentifier(task)
        activeTasks[id] = ActiveTask(
            subscription: nil, pipeline: pipeline, fail: { task.finish(with: .failure($0)) })
        let job = makeTaskFetchOriginalData(for: task.request)
        let subscription = job.subscribe(priority: task.priority, owner: .request(task.request)) {
            [self] event in
            switch event {
            case let .value(response, isCompleted):
                guard isCompleted else { return }
                self.activeTasks[id] = nil
                task.finish(with: .success((response.data, response.urlResponse)), holding: response.ticket)
            case let .progress(value):
                if !task.isFinished { task.onProgress?(value.completed, value.total) }
            case let .error(error):
                self.activeTasks[id] = nil
                task.finish(with: .failure(error))
            }
        }
        attach(subscription, to: id)
    }

    private func attach(_ subscription: TaskSubscription?, to id: ObjectIdentifier) {
        if activeTasks[id] != nil {
            activeTasks[id]?.subscription = subscription
        } else {
            subscription?.unsubscribe()  // Finished while subscribing.
        }
    }

    /// Releases the graph work of a cancelled image task and reports the cancellation.
    func cancel(_ task: ImageTask) {
        activeTasks.removeValue(forKey: ObjectIdentifier(task))?.subscription?.unsubscribe()
        didFinish(task, with: .failure(.cancelled))
    }

    /// Releases the graph work of a cancelled data task.
    func cancel(_ task: DataTask) {
        activeTasks.removeValue(forKey: ObjectIdentifier(task))?.subscription?.unsubscribe()
    }

    /// Applies the latest priority of an image task.
    func updatePriority(of task: ImageTask) {
        activeTasks[ObjectIdentifier(task)]?.subscription?.setPriority(task.priority)
    }

    /// Applies the latest priority of a data task.
    func updatePriority(of task: DataTask) {
        activeTasks[ObjectIdentifier(task)]?.subscription?.setPriority(task.priority)
    }

    /// Cancels every task; new tasks fail with ``ImagePipeline/Error/pipelineInvalidated``.
    func invalidate() {
        isInvalidated = true
        let tasks = activeTasks.values
        activeTasks.removeAll()
        for task in tasks {
            task.fail(.cancelled)
            task.subscription?.unsubscribe()
        }
    }

    // MARK: The task graph

    func makeTaskLoadImage(for request: ImageRequest) -> TaskLoadImage {
        loadImageTasks.task(for: LoadKey(request), make: { TaskLoadImage(core: self, request: request) })
    }

    func makeTaskFetchOriginalImage(for request: ImageRequest) -> TaskFetchOriginalImage {
        originalImageTasks.task(for: ImageKey(request), make: { TaskFetchOriginalImage(core: self, request: request) })
    }

    func makeTaskFetchOriginalData(for request: ImageRequest) -> TaskFetchOriginalData {
        originalDataTasks.task(for: DataKey(request), make: { TaskFetchOriginalData(core: self, request: request) })
    }

    // MARK: Introspection (tests)

    /// The number of live tasks in each pool and of public tasks with work in the graph, read in a mailbox job
    /// after every job posted before.
    var liveTaskCounts: (loadImage: Int, originalImage: Int, originalData: Int, active: Int) {
        get async {
            await withCheckedContinuation { continuation in
                mailbox.post { [self] in
                    continuation.resume(
                        returning: (
                            loadImageTasks.count, originalImageTasks.count, originalDataTasks.count, activeTasks.count
                        ))
                }
            }
        }
    }
}

/// A weak reference to the pipeline that owns a core.
struct WeakPipeline {
    weak var value: ImagePipeline?
}
