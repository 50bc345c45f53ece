import Foundation
import Nuke
import NukeTestKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app's own disk-cache stand-in: `DataCaching` over a locked dictionary.
final class InMemoryDataCache: DataCaching {
    private let storage = LockedValueBox<[String: Data]>([:])

    var keys: Set<String> { Set(storage.snapshot.keys) }

    func cachedData(for key: String) -> Data? { storage.withLock { $0[key] } }
    func containsData(for key: String) -> Bool { storage.withLock { $0[key] != nil } }
    func storeData(_ data: Data, for key: String) { storage.withLock { $0[key] = data } }
    func removeData(for key: String) { storage.withLock { $0[key] = nil } }
    func removeAll() { storage.withLock { $0.removeAll() } }
}

/// An app's own memory cache: `ImageCaching` over a locked dictionary.
final class DictionaryImageCache: ImageCaching {
    private let storage = LockedValueBox<[ImageCacheKey: ImageContainer]>([:])

    var count: Int { storage.snapshot.count }

    subscript(key: ImageCacheKey) -> ImageContainer? {
        get { storage.withLock { $0[key] } }
        set { storage.withLock { $0[key] = newValue } }
    }

    func removeAll() { storage.withLock { $0.removeAll() } }
}

/// An app's own loader: wraps another `DataLoading`, counts loads and hands out its own `Cancellable`.
final class CountingDataLoader: DataLoading {
    private let wrapped: any DataLoading
    private let counts = LockedValueBox((loads: 0, cancels: 0))
    /// Opens when a load is cancelled.
    let cancelled = Gate()

    init(_ wrapped: any DataLoading = DataLoader()) { self.wrapped = wrapped }

    var loadCount: Int { counts.snapshot.loads }
    var cancelCount: Int { counts.snapshot.cancels }

    func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        counts.withLock { $0.loads += 1 }
        let task = wrapped.loadData(with: request, didReceiveData: didReceiveData, completion: completion)
        return CountingCancellable(task: task, counts: counts, cancelled: cancelled)
    }
}

/// The app's `Cancellable`: forwards to the wrapped task and counts.
private struct CountingCancellable: Cancellable {
    let task: any Cancellable
    let counts: LockedValueBox<(loads: Int, cancels: Int)>
    let cancelled: Gate

    func cancel() {
        counts.withLock { $0.cancels += 1 }
        cancelled.open()
        task.cancel()
    }
}
