public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A ``DataLoading`` that manages its own connections and admits loads itself: per host, in priority order, under
/// a limit the pipeline passes down. `CurlDataLoader` adopts it; `DataLoader` (URLSession) and most custom loaders
/// don't need to.
///
/// A pipeline sends the remote loads of such a loader past its ``ImagePipeline/Configuration/dataLoadingQueue``:
/// it hands a load over as soon as the rate limiter (when enabled) and the decoding backlog let it, with the
/// request's priority and the queue's ``TaskQueue/maxConcurrentOperationCount`` as the limit of loads in flight
/// per host, and it passes later priority changes and cancellations down. So a load starts the moment the loader
/// has a free connection for its host, without a round trip through the pipeline, while the order of starts stays
/// Nuke's: per host, the highest priority first, and in the order of submission among equal priorities. A pipeline
/// keeps at most 32 loads handed over and not finished, so the bodies a burst leaves waiting for decode stay
/// bounded; the rest wait in the pipeline, in priority order. While the data loading queue is suspended, new loads
/// wait in it as for any loader.
///
/// ## Contract
/// Everything in ``DataLoading``'s contract, and:
/// - At most `maximumConcurrentLoadsPerHost` loads with that limit run at once per host (0: no limit of the
///   pipeline's; the loader's own limits still apply). A loader may apply the smallest limit among its waiting loads
///   to a host, or its own lower one.
/// - Among the waiting loads of one host, a load with a higher priority starts first; equal priorities start in
///   submission order.
/// - ``PrioritizedCancellable/setPriority(_:)`` moves a waiting load to its new priority (behind the loads already
///   waiting at that priority); for a running load it may do nothing.
public protocol PrioritizedDataLoading: DataLoading {
    /// Starts loading the data for `request` once the loader admits it: see the protocol's contract.
    func loadData(
        with request: URLRequest,
        priority: ImageRequest.Priority,
        maximumConcurrentLoadsPerHost: Int,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any PrioritizedCancellable
}

/// The handle of a load started by a ``PrioritizedDataLoading``: it cancels the load and changes its priority.
public protocol PrioritizedCancellable: Cancellable {
    /// Changes the priority of the load while it waits for admission; safe from any thread, and a no-op once the load
    /// runs, finished or was cancelled.
    func setPriority(_ priority: ImageRequest.Priority)
}
