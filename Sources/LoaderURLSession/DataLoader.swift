public import Foundation
public import NukeCore

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A `DataLoading` on Foundation's `URLSession` (FoundationNetworking on Linux), streaming each chunk through
/// a session delegate.
///
/// ```swift
/// let pipeline = ImagePipeline { $0.dataLoader = DataLoader() }
/// ```
///
/// - **Callbacks** run on the session's serial delegate queue, in order and never concurrently: `didReceiveData`
///   for each chunk (with the `HTTPURLResponse`), then `completion` exactly once.
/// - **Status.** Each response is checked by the `validate` closure (default ``validate(response:)``: a status
///   outside 200–299, other than 304, fails with ``Error/statusCodeUnacceptable(_:)``); a response it rejects fails
///   the load with its error and the body is not delivered; for a status outside 2xx the response is: one empty
///   chunk with it comes before the error, so the pipeline's HTTP cache can store a `404` by its headers. `304 Not Modified` (the answer to a conditional request
///   the pipeline made) is a response: one empty chunk with it, then `completion(nil)`. The loader sends no
///   conditional headers of its own.
/// - **Redirects** are followed only to `http`/`https` URLs, at most ``maximumRedirects`` times; otherwise the
///   load fails with ``Error/redirectNotAllowed(_:)`` or ``Error/tooManyRedirects(_:)``. (FoundationNetworking
///   resolves a `Location` without a host, such as `file:///etc/passwd`, against the current URL, so that one
///   becomes an `http` request for `/etc/passwd` on the same server; no local file is ever read.)
/// - **Cancellation.** Once `cancel()` returns no callback starts, not even `completion`; one already under way
///   on the delegate queue (a chunk, or the completion of a load that just finished) may still run.
/// - **Caching.** FoundationNetworking's `URLCache` stores nothing on Linux (and ignores query strings), so the
///   default configuration turns it off: use the pipeline's caches (`ImageCache`, a `DataCaching` plugin).
/// - **Content codings.** FoundationNetworking always asks libcurl for compressed responses and decodes them, so a
///   body in a coding libcurl doesn't know (an unknown `Content-Encoding` or `Transfer-Encoding`) fails the load
///   with its decoding error (`NSURLErrorDomain`, "Unrecognized content encoding type") instead of arriving as it
///   came: FoundationNetworking has no option to turn decoding off. `CurlDataLoader` delivers such a body raw.
/// - **Timeouts** are `URLSession`'s: the request's `timeoutInterval` (default from the configuration's
///   `timeoutIntervalForRequest`).
///
/// `CurlDataLoader` (the LoaderCurl product) is several times faster on Linux; this loader is for apps that
/// already configure `URLSession` (proxies, protocol classes) and want the pipeline to share it.
public final class DataLoader: DataLoading {
    /// The session all loads run on. It's invalidated when the loader is released (running loads finish).
    public let session: URLSession

    /// How many redirects a load follows before failing with ``Error/tooManyRedirects(_:)``.
    public let maximumRedirects: Int

    private let sessionDelegate: DataLoaderSessionDelegate
    private let options = LockedValueBox(false)

    /// A delegate that receives the session events this loader doesn't handle itself: authentication
    /// challenges (session- and task-level), the session's invalidation, and task metrics where
    /// FoundationNetworking reports them (it doesn't, today). Without one (the
    /// default) challenges get the system's default handling. Held strongly; settable at any time.
    public var delegate: (any URLSessionDelegate)? {
        get { self.sessionDelegate.forwardee }
        set { self.sessionDelegate.forwardee = newValue }
    }

    /// Has no effect: this loader always hands each chunk to the pipeline as it arrives (Nuke's option asks
    /// Apple's `URLSession` for that). Default `false`.
    public var prefersIncrementalDelivery: Bool {
        get { options.snapshot }
        set { options.withLock { $0 = newValue } }
    }

    /// A `URLCache` for configurations that want one (Nuke's shared HTTP disk cache: no memory part, 150 MB
    /// on disk, in `com.github.kean.Nuke.Cache` under the user's caches directory, `~/.cache` on Linux). It is
    /// **not** used by ``defaultConfiguration``: FoundationNetworking's `URLCache` stores nothing on Linux and
    /// ignores query strings. Use the pipeline's `DataCache` (the CacheDisk product).
    public static let sharedUrlCache: URLCache = URLCache(
        memoryCapacity: 0, diskCapacity: 150 * 1024 * 1024, diskPath: sharedUrlCachePath)

    /// The absolute path of ``sharedUrlCache``'s directory. FoundationNetworking resolves a relative `diskPath`
    /// against the current directory (Apple's Foundation against the caches directory), so Nuke's relative name
    /// would make a directory wherever the program was started.
    private static var sharedUrlCachePath: String {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("com.github.kean.Nuke.Cache", isDirectory: true).path
    }

    /// Nuke's default response check: a non-HTTP response passes; an HTTP status outside 200–299 gives
    /// ``Error/statusCodeUnacceptable(_:)``, except `304 Not Modified`, which the pipeline's HTTP cache asks for.
    @Sendable public static func validate(response: URLResponse) -> (any Swift.Error)? {
        guard let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode), http.statusCode != 304
        else { return nil }
        return Error.statusCodeUnacceptable(http.statusCode)
    }

    /// The default session configuration: `URLSessionConfiguration.default` with no `URLCache` (it stores
    /// nothing on Linux) and a cache policy that ignores local data.
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Creates a loader with its own session that follows at most 10 redirects.
    ///
    /// - Parameters:
    ///   - configuration: The session configuration; see ``defaultConfiguration``.
    ///   - validate: Checks each response before its body is delivered; an error it returns fails the load.
    public convenience init(
        configuration: URLSessionConfiguration = DataLoader.defaultConfiguration,
        validate: @escaping @Sendable (URLResponse) -> (any Swift.Error)? = DataLoader.validate
    ) {
        self.init(configuration: configuration, validate: validate, maximumRedirects: 10)
    }

    /// Creates a loader with its own session.
    ///
    /// - Parameters:
    ///   - configuration: The session configuration; see ``defaultConfiguration``.
    ///   - validate: Checks each response before its body is delivered; an error it returns fails the load.
    ///   - maximumRedirects: How many redirects one load may follow.
    public init(
        configuration: URLSessionConfiguration = DataLoader.defaultConfiguration,
        validate: @escaping @Sendable (URLResponse) -> (any Swift.Error)? = DataLoader.validate,
        maximumRedirects: Int
    ) {
        self.maximumRedirects = max(0, maximumRedirects)
        sessionDelegate = DataLoaderSessionDelegate(maximumRedirects: self.maximumRedirects, validate: validate)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "nuke.DataLoader.delegate"
        session = URLSession(configuration: configuration, delegate: sessionDelegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Starts loading `request` and returns at once; see the type's documentation for the callback contract.
    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Swift.Error)?) -> Void
    ) -> any Cancellable {
        let task = session.dataTask(with: request)
        let handler = DataLoaderTaskHandler(didReceiveData: didReceiveData, completion: completion)
        sessionDelegate.register(handler, for: task)
        task.resume()
        return DataLoaderTaskToken(task: task, handler: handler)
    }

    /// Why a ``DataLoader`` load failed, besides `URLError`s from the session.
    public enum Error: HTTPStatusCodeError, Sendable, Equatable, CustomStringConvertible {
        /// The server answered with a status outside 200–299.
        case statusCodeUnacceptable(Int)
        /// A redirect pointed to a URL that isn't `http`/`https`.
        case redirectNotAllowed(URL?)
        /// The load was redirected more than ``DataLoader/maximumRedirects`` times; the last target.
        case tooManyRedirects(URL?)

        /// The status of ``statusCodeUnacceptable(_:)``, else `nil`.
        public var httpStatusCode: Int? {
            if case let .statusCodeUnacceptable(status) = self { return status }
            return nil
        }

        public var description: String {
            switch self {
            case let .statusCodeUnacceptable(status):
                "Response status code was unacceptable: \(status)"
            case let .redirectNotAllowed(url):
                "Refused to follow a redirect to \(url?.absoluteString ?? "nil") (only http and https are allowed)"
            case let .tooManyRedirects(url):
                "Too many redirects (last to \(url?.absoluteString ?? "nil"))"
            }
        }
    }
}

/// The ``Cancellable`` of one ``DataLoader`` load.
private struct DataLoaderTaskToken: Cancellable, @unchecked Sendable {
    // @unchecked: URLSessionTask's `cancel()` is thread-safe; the handler is Sendable.
    let task: URLSessionDataTask
    let handler: DataLoaderTaskHandler

    func cancel() {
        guard handler.markCancelled() else { return }
        task.cancel()
    }
}
