public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Loads the bytes of an image. Implemented by loader plugins (`CurlDataLoader`, `DataLoader`) and by apps.
///
/// ## Contract
/// - `loadData` returns immediately; the work happens elsewhere.
/// - `didReceiveData` is called for each chunk as it arrives, in order, never concurrently, with the
///   response (status, headers, `expectedContentLength`).
/// - `completion` is called exactly once: `nil` on success, else the error. A non-2xx HTTP status is an
///   error (adopt ``HTTPStatusCodeError`` so the pipeline can read its status). No callback follows `completion`.
/// - A loader may hand the response of a status it fails to `didReceiveData` with an empty chunk before the
///   error (both plugin loaders do): following HTTP headers, the pipeline then stores a `404`, `410` or another
///   cacheable error status and fails requests with ``CachedHTTPStatusError`` while it is fresh. The error
///   response's body is never delivered.
/// - After ``Cancellable/cancel()`` returns the loader stops promptly and starts no callback except, at most,
///   one `completion` with a cancellation error. A callback already under way on another thread when `cancel()`
///   is called may still finish.
public protocol DataLoading: Sendable {
    /// Starts loading the data for `request`; see the protocol's contract.
    func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable
}

/// Work that can be cancelled.
public protocol Cancellable: Sendable {
    /// Cancels the work. Safe to call from any thread, more than once, and after the work finished.
    func cancel()
}

/// The default ``ImagePipeline/Configuration/dataLoader``: the core ships no network stack, so it fails every
/// request with ``MissingDataLoaderError``, which explains which plugin to add.
///
/// `file:` and `data:` URLs never reach a data loader: the pipeline reads them itself.
public struct MissingDataLoader: DataLoading {
    /// Creates the loader.
    public init() {}

    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        completion(MissingDataLoaderError(url: request.url))
        return NoopCancellable()
    }
}

/// The error of ``MissingDataLoader``: no loader plugin is configured for the URL's scheme.
public struct MissingDataLoaderError: Error, Sendable, CustomStringConvertible {
    /// The URL that could not be loaded.
    public let url: URL?

    public var description: String {
        let scheme = url?.scheme.map { "\($0):" } ?? "this"
        return "No data loader is configured for \(scheme) URL '\(url?.absoluteString ?? "nil")'. "
            + "NukeCore reads file: and data: URLs itself; for http(s) add a loader plugin, for example "
            + "`ImagePipeline { $0.dataLoader = CurlDataLoader() }` from the LoaderCurl product."
    }
}

struct NoopCancellable: Cancellable {
    func cancel() {}
}
