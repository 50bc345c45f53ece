import NukeCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The callbacks of one load and what the delegate learned about it. `phase` is locked (the token flips it to
/// `cancelled`); the other fields are touched only on the session's serial delegate queue.
final class DataLoaderTaskHandler: @unchecked Sendable {
    // @unchecked: see above — `phase` is a locked box, the rest is confined to the serial delegate queue.
    enum Phase: Equatable {
        case running, cancelled, finished
    }

    let didReceiveData: @Sendable (Data, URLResponse) -> Void
    let completion: @Sendable ((any Error)?) -> Void
    let phase = LockedValueBox(Phase.running)
    var response: URLResponse?
    var error: (any Error)?
    var redirectCount = 0
    /// `true` once a chunk was delivered.
    var hasDeliveredData = false

    init(
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        self.didReceiveData = didReceiveData
        self.completion = completion
    }

    var isRunning: Bool { phase.snapshot == .running }

    /// `false` if the load had already finished or been cancelled.
    func markCancelled() -> Bool {
        phase.withLock { phase in
            guard phase == .running else { return false }
            phase = .cancelled
            return true
        }
    }

    /// Calls `completion` unless the load was cancelled or already completed.
    func finish(_ error: (any Error)?) {
        let shouldCall = phase.withLock { phase in
            guard phase == .running else { return false }
            phase = .finished
            return true
        }
        if shouldCall { completion(error) }
    }
}

/// The session delegate: routes each task's events to its handler, validates status codes and redirects.
final class DataLoaderSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `handlers` and `forwardeeBox` are locked boxes; `maximumRedirects` and `validate` are
    // immutable.
    private let handlers = LockedValueBox([Int: DataLoaderTaskHandler]())
    private let forwardeeBox = LockedValueBox<(any URLSessionDelegate)?>(nil)
    private let maximumRedirects: Int
    private let validate: @Sendable (URLResponse) -> (any Error)?

    init(maximumRedirects: Int, validate: @escaping @Sendable (URLResponse) -> (any Error)?) {
        self.maximumRedirects = maximumRedirects
        self.validate = validate
    }

    /// The app's delegate (``DataLoader/delegate``), told what this one doesn't handle.
    var forwardee: (any URLSessionDelegate)? {
        get { forwardeeBox.snapshot }
        set { forwardeeBox.withLock { $0 = newValue } }
    }

    func register(_ handler: DataLoaderTaskHandler, for task: URLSessionTask) {
        handlers.withLock { $0[task.taskIdentifier] = handler }
    }

    private func handler(for task: URLSessionTask) -> DataLoaderTaskHandler? {
        handlers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let handler = handler(for: dataTask) else { return completionHandler(.cancel) }
        handler.response = response
        if let error = validate(response) {
            if handler.error == nil { handler.error = error }
            // A rejected error status, without its body, before the error (the HTTP cache stores a 404 by it).
            if handler.isRunning, let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                handler.didReceiveData(Data(), http)
            }
            return completionHandler(.cancel)
        }
        completionHandler(handler.isRunning ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let handler = handler(for: dataTask), handler.error == nil, handler.isRunning else { return }
        guard let response = handler.response ?? dataTask.response else { return }
        handler.hasDeliveredData = true
        handler.didReceiveData(data, response)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let handler = handler(for: task) else { return completionHandler(nil) }
        handler.redirectCount += 1
        let scheme = request.url?.scheme?.lowercased()
        if scheme != "http" && scheme != "https" {
            handler.error = DataLoader.Error.redirectNotAllowed(request.url)
            return completionHandler(nil)
        }
        if handler.redirectCount > maximumRedirects {
            handler.error = DataLoader.Error.tooManyRedirects(request.url)
            return completionHandler(nil)
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let handler = handlers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = handler.error {
            handler.finish(failure)
        } else if let error {
            handler.finish(error)
        } else if let response = handler.response ?? task.response, let failure = validate(response) {
            handler.finish(failure)
        } else {
            // A `304 Not Modified` has no body: delivered as one empty chunk with its response.
            if !handler.hasDeliveredData, let response = (handler.response ?? task.response) as? HTTPURLResponse,
                response.statusCode == 304, handler.isRunning
            {
                handler.didReceiveData(Data(), response)
            }
            handler.finish(nil)
        }
    }

    // MARK: Forwarded to the app's delegate

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        forwardee?.urlSession(session, didBecomeInvalidWithError: error)
    }

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let forwardee else { return completionHandler(.performDefaultHandling, nil) }
        forwardee.urlSession(session, didReceive: challenge, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let forwardee else { return completionHandler(.performDefaultHandling, nil) }
        if let taskDelegate = forwardee as? any URLSessionTaskDelegate {
            taskDelegate.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
        } else {
            // A session delegate only: it answers every challenge at the session level.
            forwardee.urlSession(session, didReceive: challenge, completionHandler: completionHandler)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        (forwardee as? any URLSessionTaskDelegate)?.urlSession(session, task: task, didFinishCollecting: metrics)
    }
}
