import NukeCore
import Foundation
internal import CCurlShim
internal import CLibCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One load: its easy handle, the caller's callbacks, and the response being received.
///
/// Created (and its handle configured) on the caller's thread; after submission only the loop thread touches
/// it, except ``phase``, which the caller's ``CurlTransferToken`` flips to `cancelled` under its lock. Every
/// callback runs on the loop thread, so a transfer's callbacks are ordered and never concurrent; each one
/// first checks ``phase``, so none starts once `cancel()` has returned.
///
/// Header lines are only collected as they arrive; the first body bytes wait for the `HTTPURLResponse`, which
/// ``CurlResponseBuilder`` builds off the loop thread from ``responseParts`` (a body-less response never needs
/// one). Bytes that arrive meanwhile, in however many write callbacks, are delivered as one chunk when the response
/// is back (``flush(buildingResponse:)``, via the loop's ``CurlFlushList``), or built here as soon as they reach
/// ``maximumPendingBody``: a small body (most images) is one `didReceiveData`. Once the response is there, each
/// write callback's bytes (one read, at most the receive buffer) are delivered as they arrive, so a large body's
/// progress moves with the download rather than once per `curl_multi_perform`, which reads for as long as the
/// socket has data. A transfer that curl finishes while its bytes wait completes once its response is back
/// (``deferFinish(result:)``).
final class CurlTransfer: @unchecked Sendable {
    // @unchecked: mutable fields are confined to the loop thread after submission (the hand-over goes through
    // the multi loop's lock); `phase` is a locked box; the rest is immutable.
    enum Phase: Equatable {
        case running, cancelled, finished
    }

    let id: Int
    /// The handle, until the loop gives it back to the pool (``takeEasy()``) once the transfer is done with it.
    private(set) var easy: CurlEasy?
    let url: URL?
    /// The key the per-host limit counts against: scheme, host and port of the request's URL.
    let hostKey: String
    let phase = LockedValueBox(Phase.running)
    /// Set when the request could not be turned into a transfer; the loop fails it without adding it to curl.
    let setupError: CurlError?

    private let multiplexes: Bool
    let didReceiveData: @Sendable (Data, URLResponse) -> Void
    private let completion: @Sendable ((any Error)?) -> Void
    /// Loop thread only: where to register for a flush after the current `curl_multi_perform`.
    var flushList: CurlFlushList?
    var pendingBody = Data()
    var deliveredCount = 0
    static let maximumPendingBody = 1 << 20
    /// Once the response is there, how many pending body bytes are delivered without waiting for the end of curl's
    /// pass: the step by which a large download's progress moves.
    static let progressStep = 64 * 1024
    var headers = CurlResponseHeaders()
    /// Whether the header callback turned curl's body decoding off for the current response (an unknown coding).
    var isDecodingSkipped = false
    /// The final response's status, read from curl when its first body byte arrives (0 before).
    var statusCode = 0
    /// Built before the first chunk is delivered (by ``CurlResponseBuilder``, or here when bytes can't wait).
    var response: HTTPURLResponse?
    /// Whether the loop sent ``responseParts`` to the builder.
    var isResponseRequested = false
    /// curl's result, kept when the transfer finished while its last bytes waited for the response.
    private(set) var deferredResult: CURLcode?
    /// Why the transfer fails although curl may report success: a non-2xx status or the idle timeout.
    var failure: CurlError?
    /// Bytes of a non-2xx response's body read and dropped (so its keep-alive connection stays reusable).
    var discardedCount = 0
    static let maximumDiscardedBody = 64 * 1024
    var idleTimeout: IdleTimeout?
    /// The configuration's ``CurlDataLoader/Configuration/allowsConnection``, asked by ``allowsConnection(to:port:)``.
    private let connectionFilter: (@Sendable (String, Int) -> Bool)?
    /// The last address the connection filter refused, on the loop thread: a failed connect then reads as a refusal,
    /// unless the filter's last decision allowed an address (which then failed to connect on its own).
    private(set) var refusedAddress: String?
    /// Whether the filter's last decision allowed the address.
    private var lastDecisionAllowed = false

    private static let ids = LockedValueBox(0)

    init(
        request: URLRequest,
        configuration: CurlDataLoader.Configuration,
        pool: CurlEasyPool?,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        id = Self.ids.withLock { id in
            id += 1
            return id
        }
        url = request.url
        multiplexes =
            configuration.isMultiplexingEnabled
            && !(configuration.httpVersion == .http2PriorKnowledge && CurlGlobal.breaksPriorKnowledgeReuse)
        hostKey = request.url.map { "\($0.scheme ?? "")://\($0.host ?? ""):\($0.port ?? -1)" } ?? ""
        self.didReceiveData = didReceiveData
        self.completion = completion
        connectionFilter = configuration.allowsConnection
        var easy: CurlEasy?
        var setupError: CurlError?
        do {
            var handle: CurlEasy
            if let pool { handle = try pool.take() } else { handle = try CurlEasy() }
            do {
                try handle.configure(for: request, configuration: configuration)
            } catch  where pool != nil {
                // A reused handle can refuse an option a fresh one takes (libcurl refuses CURLOPT_BUFFERSIZE on
                // some handles that carried an HTTP/2 transfer): configure a fresh handle instead.
                handle = try CurlEasy()
                try handle.configure(for: request, configuration: configuration)
            }
            easy = handle
        } catch {
            setupError = error.with(url: request.url)
        }
        self.easy = easy
        self.setupError = setupError
        if request.timeoutInterval > 0 { idleTimeout = IdleTimeout(interval: request.timeoutInterval) }
        if let easy {
            // The context pointer is valid while the transfer is in the multi handle: the loop holds it.
            let context = Unmanaged.passUnretained(self).toOpaque()
            do {
                try easy.set(CCurlShim_OPT_HEADERDATA, pointer: context)
                try easy.set(CCurlShim_OPT_WRITEDATA, pointer: context)
                try easy.set(CCurlShim_OPT_XFERINFODATA, pointer: context)
                if connectionFilter != nil { try easy.set(CCurlShim_OPT_OPENSOCKETDATA, pointer: context) }
            } catch {
                // Unreachable: both options exist in every libcurl. The callbacks then see a nil context.
            }
        }
    }

    /// Whether the finished transfer shows its host shares connections among transfers (HTTP/2, unless this
    /// libcurl can't reuse the configured prior-knowledge connections).
    var showsMultiplexingHost: Bool {
        guard let easy, multiplexes else { return false }
        return easy.usedMultiplexingProtocol
    }

    /// Hands the easy handle over (to be recycled) and forgets it; `nil` if there is none or it was taken. Call on
    /// the loop thread once the handle is out of the multi handle and the transfer needs it no more.
    func takeEasy() -> CurlEasy? {
        defer { easy = nil }
        return easy
    }

    /// Marks the transfer cancelled; `false` if it had already finished or been cancelled.
    func markCancelled() -> Bool {
        Self.markCancelled(phase)
    }

    /// Marks the transfer whose phase is `phase` cancelled; `false` if it had already finished or been cancelled.
    static func markCancelled(_ phase: LockedValueBox<Phase>) -> Bool {
        phase.withLock { phase in
            guard phase == .running else { return false }
            phase = .cancelled
            return true
        }
    }

    /// Whether the transfer is neither cancelled nor finished (loop thread: checked before every callback).
    var isRunning: Bool { phase.snapshot == .running }

    // MARK: Loop thread

    /// curl reports progress (at least once a second while the transfer runs). Returns `false` to abort: the
    /// transfer was cancelled, or no byte moved for the request's `timeoutInterval`.
    func progress(downloaded: Int64, uploaded: Int64) -> Bool {
        guard isRunning else { return false }
        guard var timeout = idleTimeout else { return true }
        defer { idleTimeout = timeout }
        guard timeout.isExpired(downloaded: downloaded, uploaded: uploaded) else { return true }
        failure = .transferFailed(
            code: .operationTimedOut,
            message: "No data received for \(timeout.interval) s (the request's timeoutInterval)", url: currentURL)
        return false
    }

    /// Whether the transfer may connect to `address`:`port` (curl's socket callback asks, on the loop thread); a
    /// refusal is remembered for the transfer's error.
    func allowsConnection(to address: String, port: Int) -> Bool {
        guard let connectionFilter else { return true }
        let allowed = connectionFilter(address, port)
        lastDecisionAllowed = allowed
        if !allowed { refusedAddress = address }
        return allowed
    }

    /// curl finished the transfer with `result`; delivers the last bytes (building the response here if it isn't
    /// there yet), then calls `completion` unless the transfer was cancelled.
    func finish(result: CURLcode) {
        flush(buildingResponse: true)
        let error: CurlError?
        if let failure {
            error = failure
        } else if result == CURLE_COULDNT_CONNECT, let refusedAddress, !lastDecisionAllowed {
            error = .connectionRefused(address: refusedAddress, url: currentURL)
        } else if result != CURLE_OK {
            let message = easy?.message(for: result) ?? result.message
            error = .transferFailed(code: CurlError.Code(result), message: message, url: currentURL)
        } else {
            let status = statusCode != 0 ? statusCode : easy?.responseCode ?? 0
            error = validate(status: status)
            if error == nil, status == 304, deliveredCount == 0 { deliverEmptyResponse(status: status) }
        }
        if case let .unacceptableStatusCode(status, _)? = error, deliveredCount == 0 {
            deliverEmptyResponse(status: status)
        }
        complete(with: error)
    }

    /// curl finished the transfer while its last bytes wait for the response being built: keeps `result` for
    /// ``finishDeferred()``.
    func deferFinish(result: CURLcode) {
        deferredResult = result
    }

    /// Finishes a transfer whose finish was deferred; returns `false` if it wasn't (it is still in curl).
    func finishDeferred() -> Bool {
        guard let result = deferredResult else { return false }
        deferredResult = nil
        finish(result: result)
        return true
    }

    /// Calls `completion(error)` unless the transfer was cancelled or already completed.
    func complete(with error: CurlError?) {
        let shouldCall = phase.withLock { phase in
            guard phase == .running else { return false }
            phase = .finished
            return true
        }
        guard shouldCall else { return }
        completion(error)
    }

    /// The URL of the response: the request's, or where redirects led.
    var currentURL: URL? {
        guard let easy, easy.redirectCount > 0, let effective = easy.effectiveURL,
            effective != url?.absoluteString
        else { return url }
        return URL(string: effective) ?? url
    }

    /// A 2xx status passes, and so does `304 Not Modified` (the answer to a conditional request, delivered as a
    /// response with an empty body).
    func validate(status: Int) -> CurlError? {
        guard !(200..<300).contains(status), status != 304 else { return nil }
        return .unacceptableStatusCode(status, url: currentURL)
    }
}

extension CurlError {
    /// The error with its URL filled in when it had none.
    func with(url: URL?) -> CurlError {
        switch self {
        case let .transferFailed(code, message, nil): .transferFailed(code: code, message: message, url: url)
        case let .invalidRequest(reason, nil): .invalidRequest(reason: reason, url: url)
        default: self
        }
    }
}
