/// The pipeline's task graph: the pools of shared tasks and the subscriptions of the public tasks.
///
/// Lives on ``ImagePipelineActor``; everything from outside arrives through ``mailbox`` in order.
@ImagePipelineActor
final class PipelineCore {
    nonisolated let configuration: ImagePipeline.Configuration
    nonisolated let mailbox = Mailbox()

    private let loadImageTasks: TaskPool<LoadKey, TaskLoadImage>
    private let originalImageTasks: TaskPool<ImageKey, TaskFetchOriginalImage>
    private let originalDataTasks: TaskPool<DataKey, TaskFetchOriginalData>

    /// A public task's hold on the graph, and how to end it from here.
    private struct ActiveTask {
        var subscription: TaskSubscription?
        let fail: @Sendable (ImagePipeline.Error) -> Void
    }

    private var activeTasks: [ObjectIdentifier: ActiveTask] = [:]
    private var isInvalidated = false

    nonisolated init(configuration: ImagePipeline.Configuration) {
        self.configuration = configuration
        let coalescing = configuration.isTaskCoalescingEnabled
        loadImageTasks = TaskPool(isCoalescingEnabled: coalescing)
        originalImageTasks = TaskPool(isCoalescingEnabled: coalescing)
        originalDataTasks = TaskPool(isCoalescingEnabled: coalescing)
    }

    // MARK: Public tasks

    /// Starts an image task (unless it was cancelled before it got here).
    func start(_ task: ImageTask) {
        guard !task.isFinished else { return }
        guard !isInvalidated else {
            task.finish(with: .failure(.pipelineInvalidated))
            return
        }
        let id = ObjectIdentifier(task)
        activeTasks[id] = ActiveTask(subscription: nil, fail: { task.finish(with: .failure($0)) })
        let subscription = makeTaskLoadImage(for: task.request).subscribe(priority: task.priority) {
            [weak self] event in
            switch event {
            case let .value(response, isCompleted):
                var response = response
                response.request = task.request
                if isCompleted {
                    self?.activeTasks[id] = nil
                    task.finish(with: .success(response))
                } else {
                    task.deliver(.preview(response))
                }
            case let .progress(progress):
                task.deliver(.progress(ImageTask.Progress(completed: progress.completed, total: progress.total)))
            case let .error(error):
                self?.activeTasks[id] = nil
                task.finish(with: .failure(error))
            }
        }
        attach(subscription, to: id)
    }

    /// Starts a data task (unless it was cancelled before it got here).
    func start(_ task: DataTask) {
        guard !task.isFinished else { return }
        guard !isInvalidated else {
            task.finish(with: .failure(.pipelineInvalidated))
            return
        }
        let id = ObjectIdentifier(task)
        activeTasks[id] = ActiveTask(subscription: nil, fail: { task.finish(with: .failure($0)) })
        let subscription = makeTaskFetchOriginalData(for: task.request).subscribe(priority: task.request.priority) {
            [weak self] event in
            switch event {
            case let .value(response, isCompleted):
                guard isCompleted else { return }
                self?.activeTasks[id] = nil
                task.finish(with: .success((response.data, response.urlResponse)))
            case .progress:
                break
            case let .error(error):
                self?.activeTasks[id] = nil
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

    /// Releases the graph work of a cancelled public task.
    func cancel(_ task: AnyObject) {
        activeTasks.removeValue(forKey: ObjectIdentifier(task))?.subscription?.unsubscribe()
    }

    /// Applies the latest priority of an image task.
    func updatePriority(of task: ImageTask) {
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
        loadImageTasks.task(
            for: LoadKey(request),
            make: { TaskLoadImage(core: self, request: request) })
    }

    func makeTaskFetchOriginalImage(for request: ImageRequest) -> TaskFetchOriginalImage {
        originalImageTasks.task(
            for: ImageKey(request),
            make: { TaskFetchOriginalImage(core: self, request: request) })
    }

    func makeTaskFetchOriginalData(for request: ImageRequest) -> TaskFetchOriginalData {
        originalDataTasks.task(
            for: DataKey(request),
            make: { TaskFetchOriginalData(core: self, request: request) })
    }

    // MARK: Memory cache

    func cachedImage(for request: ImageRequest) -> ImageContainer? {
        guard !request.options.contains(.disableMemoryCacheReads), let cache = configuration.imageCache else {
            return nil
        }
        return cache[ImageCacheKey(request: request)]
    }

    func storeImage(_ container: ImageContainer, for request: ImageRequest) {
        guard !request.options.contains(.disableMemoryCacheWrites), !container.isPreview,
            let cache = configuration.imageCache
        else { return }
        cache[ImageCacheKey(request: request)] = container
    }

    // MARK: Introspection (tests)

    /// The number of live tasks in each pool and of public tasks with work in the graph.
    var liveTaskCounts: (loadImage: Int, originalImage: Int, originalData: Int, active: Int) {
        (loadImageTasks.count, originalImageTasks.count, originalDataTasks.count, activeTasks.count)
    }
}
