import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A public task as the task graph sees it — an ``ImageTask`` or a ``DataTask`` — so that both start, receive
/// events, change priority, are cancelled and are failed by invalidation through one path
/// (``PipelineCore/start(_:pipeline:)`` and its neighbours).
///
/// ``isFinished``, ``priority`` and ``AnyPublicTask/finish(failingWith:)`` are safe from any thread (the tasks keep
/// that state under a lock); everything else is called only in graph jobs (see ``Mailbox``).
protocol PublicTask: AnyPublicTask {
    /// What the task's graph task produces.
    associatedtype Value: Sendable

    /// The request the task serves.
    var request: ImageRequest { get }
    /// The task's current priority.
    var priority: ImageRequest.Priority { get }
    /// `true` once the task has a result (it finished, failed or was cancelled).
    var isFinished: Bool { get }

    /// The shared graph task whose events this task receives, or `nil` when the task finished without one (a
    /// memory cache hit).
    func graphTask(in core: PipelineCore) -> PipelineTask<Value>?
    /// Called once, in the job that starts the task, before it starts.
    func didCreate(core: PipelineCore)
    /// Called once, when the task starts in the graph.
    func didStart(core: PipelineCore)
    /// Handles an event of its graph task; a terminal event (a completed value or an error) finishes the task.
    func receive(_ event: PipelineTask<Value>.Event, core: PipelineCore)
}

/// The part of ``PublicTask`` without associated types, for the core's table of running tasks.
protocol AnyPublicTask: AnyObject, Sendable {
    /// Finishes the task with `error` unless it has finished; returns `false` if it had. Only the task's own
    /// observers (waiters, event streams, completion handlers) hear of it.
    @discardableResult
    func finish(failingWith error: ImagePipeline.Error) -> Bool
    /// Tells the pipeline's delegate, if the task kind reports to it, that the task ended with `error`.
    func didFail(_ error: ImagePipeline.Error, core: PipelineCore)
}

extension AnyPublicTask {
    /// Finishes the task with `error` (unless it has finished) and tells the delegate.
    func fail(_ error: ImagePipeline.Error, core: PipelineCore) {
        if finish(failingWith: error) { didFail(error, core: core) }
    }
}

// MARK: Image tasks

extension ImageTask: PublicTask {
    /// A request with processing goes through ``TaskLoadImage``. A request for the original image subscribes to
    /// its decode itself (one shared task fewer, for the most common request): the memory cache is read here and
    /// written in ``receive(_:core:)``, which is all ``TaskLoadImage`` would add (see
    /// ``PipelineCore/decodesDirectly(_:)``).
    func graphTask(in core: PipelineCore) -> PipelineTask<ImageResponse>? {
        guard core.decodesDirectly(request) else { return core.makeTaskLoadImage(for: request) }
        if let response = core.cachedResponse(for: request) {
            let isPreview = response.container.isPreview
            receive(.value(response, isCompleted: !isPreview), core: core)  // A stored preview: show it, then load.
            guard isPreview else { return nil }
        }
        return core.makeTaskFetchOriginalImage(for: request)
    }

    func didCreate(core: PipelineCore) {
        if core.hasCustomDelegate, let pipeline = core.pipeline {
            core.delegate.imageTaskCreated(self, pipeline: pipeline)
        }
    }

    func didStart(core: PipelineCore) {
        if core.hasCustomDelegate, let pipeline = core.pipeline {
            core.delegate.imageTaskDidStart(self, pipeline: pipeline)
            core.delegate.imageTask(self, didReceiveEvent: .started, pipeline: pipeline)
        }
    }

    func receive(_ event: PipelineTask<ImageResponse>.Event, core: PipelineCore) {
        switch event {
        case let .value(response, isCompleted):
            if response.cacheType != .memory, core.decodesDirectly(request) {
                // Decoded for this task (or a coalesced one, which stores the same image under the same key).
                core.storeInMemoryCache(response.container, for: request, isCompleted: isCompleted)
            }
            var response = response
            response.request = request
            let ticket = response.backlogTicket
            response.backlogTicket = nil
            if isCompleted {
                if finish(with: .success(response), holding: ticket) { didFinish(with: .success(response), core: core) }
            } else {
                deliver(.preview(response))
                if core.hasCustomDelegate, let pipeline = core.pipeline {
                    core.delegate.imageTask(self, didReceivePreview: response, pipeline: pipeline)
                    core.delegate.imageTask(self, didReceiveEvent: .preview(response), pipeline: pipeline)
                }
            }
        case let .progress(value):
            let progress = ImageTask.Progress(completed: value.completed, total: value.total)
            deliver(.progress(progress))
            if core.hasCustomDelegate, let pipeline = core.pipeline {
                core.delegate.imageTask(self, didUpdateProgress: progress, pipeline: pipeline)
                core.delegate.imageTask(self, didReceiveEvent: .progress(progress), pipeline: pipeline)
            }
        case let .error(error):
            fail(error, core: core)
        }
    }

    func finish(failingWith error: ImagePipeline.Error) -> Bool {
        finish(with: .failure(error))
    }

    func didFail(_ error: ImagePipeline.Error, core: PipelineCore) {
        didFinish(with: .failure(error), core: core)
    }

    /// Tells the delegate how the task ended.
    private func didFinish(with result: Result<ImageResponse, ImagePipeline.Error>, core: PipelineCore) {
        guard core.hasCustomDelegate, let pipeline = core.pipeline else { return }
        core.delegate.imageTask(self, didCompleteWithResult: result, pipeline: pipeline)
        core.delegate.imageTask(self, didReceiveEvent: .finished(result), pipeline: pipeline)
    }
}

// MARK: Data tasks

extension DataTask: PublicTask {
    func graphTask(in core: PipelineCore) -> PipelineTask<DataResponse>? {
        core.makeTaskFetchOriginalData(for: request)
    }

    func didCreate(core: PipelineCore) {}

    func didStart(core: PipelineCore) {}

    func receive(_ event: PipelineTask<DataResponse>.Event, core: PipelineCore) {
        switch event {
        case let .value(response, isCompleted):
            guard isCompleted else { return }
            finish(with: .success((response.data, response.urlResponse)), holding: response.ticket)
        case let .progress(value):
            if !isFinished { onProgress?(value.completed, value.total) }
        case let .error(error):
            finish(with: .failure(error))
        }
    }

    func finish(failingWith error: ImagePipeline.Error) -> Bool {
        finish(with: .failure(error))
    }

    func didFail(_ error: ImagePipeline.Error, core: PipelineCore) {}
}
