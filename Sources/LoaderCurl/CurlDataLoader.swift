public import Foundation
public import NukeCore

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A `DataLoading` on libcurl's multi interface: one multi handle per loader, driven by its own thread.
///
/// ```swift
/// let pipeline = ImagePipeline { $0.dataLoader = CurlDataLoader() }
/// ```
///
/// - **Threads.** `loadData` returns at once; it never blocks a Swift concurrency thread. All transfers of a
///   loader run on one thread that polls curl and is woken with `curl_multi_wakeup`; it starts with the first
///   transfer and exits once the loader is released and its last transfer has finished (transfers still
///   running when the loader is released complete normally). The `HTTPURLResponse`s are built on a dispatch
///   queue of the loader's, so that thread spends its time on the network.
/// - **Callbacks** run on that thread, in order, never concurrently for one transfer: `didReceiveData` with the
///   bytes as they arrive — the reads of one pass of the loop together, and every 64 KB of them at once once the
///   response is ready (the reads that come before it wait for it, up to 1 MB) — (with an `HTTPURLResponse`: final URL after redirects, status, headers,
///   `expectedContentLength` from `Content-Length` — for a compressed body that is the compressed size), then
///   `completion` exactly once. Keep them short: they hold up every transfer of the loader.
/// - **Status.** A status outside 200–299 (after redirects) fails with
///   ``CurlError/unacceptableStatusCode(_:url:)``; that response's body is not delivered, but the response is: one
///   empty chunk with it comes before the error, so the pipeline's HTTP cache can store a `404` by its headers.
///   `304 Not Modified` (the answer to a conditional request the pipeline made) is a response: one empty chunk with
///   it, then `completion(nil)`.
///   The loader sends no conditional headers of its own.
/// - **Cancellation.** Once `cancel()` returns no callback starts — a cancelled load ends without `completion`
///   (the `DataLoading` contract allows either). A callback already under way on the loader's thread when
///   another thread cancels (a chunk, or the completion of a load that just finished) may still run;
///   cancelling from inside a callback is immediate. The transfer is removed from curl promptly and its
///   connection closed if it was mid-response.
/// - **Connections.** Connections are reused across transfers of the same loader; HTTP/2 multiplexes
///   transfers over one connection when the server offers it (ALPN over TLS by default; cleartext h2c with
///   ``Configuration/HTTPVersion/http2PriorKnowledge``). At most ``Configuration/maximumConnectionsPerHost``
///   transfers run per host (100 once a host multiplexes) and ``Configuration/maximumConnections`` in all; the
///   rest wait in the loader.
/// - **Admission** (`PrioritizedDataLoading`). A pipeline hands its loads to the loader as they come, with their
///   priority and its data loading queue's limit as a per-host limit (the smaller of that and the loader's own
///   applies). Waiting transfers are admitted highest priority first, in submission order among equal priorities,
///   so a freed connection takes the next transfer inside the loader's loop, without a round trip through the
///   pipeline. A transfer's priority can change while it waits. The plain `loadData` admits at `.normal` under the
///   loader's limits alone.
/// - **Request.** The `URLRequest`'s method, headers, body and `timeoutInterval` are honoured. The timeout is an
///   idle timeout, as in `URLSession`: the transfer fails with ``CurlError/Code/operationTimedOut`` when no byte
///   moves for that long (checked about once a second, so it fires up to a second late; time spent queued for
///   a connection doesn't count); it also caps the connect timeout.
/// - **Redirects** are followed only to `http`/`https` URLs, at most ``Configuration/maximumRedirects`` times.
///   Only `http` and `https` URLs are accepted at all.
public final class CurlDataLoader: PrioritizedDataLoading {
    /// The configuration the loader was created with.
    public let configuration: Configuration

    let engine: CurlEngine?
    private let engineError: CurlError?

    /// Creates a loader with its own multi handle (and, from the first transfer on, its own thread).
    ///
    /// If libcurl can't be initialised, every load fails with the reason.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        do {
            engine = try CurlEngine(configuration: configuration)
            engineError = nil
        } catch {
            engine = nil
            engineError = error
        }
    }

    deinit {
        engine?.releaseOwner()
    }

    /// The version of the libcurl in use, e.g. `7.88.1`.
    public static var curlVersion: String { CurlGlobal.version }

    /// Starts loading `request` and returns at once; see the type's documentation for the callback contract.
    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        start(request, priority: .normal, limit: 0, didReceiveData: didReceiveData, completion: completion)
    }

    /// Starts loading `request` once the loader admits it — at `priority`, with at most
    /// `maximumConcurrentLoadsPerHost` such loads running per host — and returns at once; see the type's
    /// documentation.
    public func loadData(
        with request: URLRequest,
        priority: ImageRequest.Priority,
        maximumConcurrentLoadsPerHost: Int,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any PrioritizedCancellable {
        start(
            request, priority: priority, limit: maximumConcurrentLoadsPerHost, didReceiveData: didReceiveData,
            completion: completion)
    }

    private func start(
        _ request: URLRequest, priority: ImageRequest.Priority, limit: Int,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> CurlTransferToken {
        let transfer = CurlTransfer(
            request: request, configuration: configuration, pool: engine?.easyPool, didReceiveData: didReceiveData,
            completion: completion)
        guard let engine else {
            let error = engineError ?? .invalidRequest(reason: "libcurl is unavailable", url: request.url)
            DispatchQueue.global().async { transfer.complete(with: error.with(url: request.url)) }
            return CurlTransferToken(transfer: transfer, engine: nil)
        }
        engine.submit(transfer, priority: priority.rawValue, limit: limit)
        return CurlTransferToken(transfer: transfer, engine: engine)
    }
}

/// The `PrioritizedCancellable` of one ``CurlDataLoader`` transfer. It holds the transfer's phase and id, not the
/// transfer: a finished transfer (and its curl handle and buffers) is freed when the loop drops it, even while
/// callers keep the token — and the transfer needs no weak-reference side table, which would make every retain of it
/// on the loop thread take the slow path.
private final class CurlTransferToken: PrioritizedCancellable {
    let phase: LockedValueBox<CurlTransfer.Phase>
    let id: Int
    let engine: CurlEngine?

    init(transfer: CurlTransfer, engine: CurlEngine?) {
        phase = transfer.phase
        id = transfer.id
        self.engine = engine
    }

    func cancel() {
        guard CurlTransfer.markCancelled(phase) else { return }
        engine?.cancel(id: id)
    }

    func setPriority(_ priority: ImageRequest.Priority) {
        engine?.setPriority(priority.rawValue, of: id)
    }
}
