import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the loop thread collects about a transfer's response — URL, status and raw header lines — so that its
/// `HTTPURLResponse` can be built on another thread: FoundationNetworking's initialiser canonicalises every
/// header name through `NSString` and parses `Content-Type` character by character, 10–20 µs a response, which on
/// the loop thread held up every other transfer.
struct CurlResponseParts: Sendable {
    /// The transfer the response belongs to.
    let id: Int
    /// The URL of the response (after redirects).
    let url: URL
    let statusCode: Int
    let headers: CurlResponseHeaders

    /// Builds the response. Safe on any thread.
    func makeResponse() -> HTTPURLResponse? {
        HTTPURLResponse(
            url: url, statusCode: statusCode, httpVersion: headers.httpVersion, headerFields: headers.fields)
    }
}

/// Builds the `HTTPURLResponse`s of a ``CurlEngine``'s transfers off its loop thread, a batch at a time, on a
/// serial queue of its own. The loop hands the results to the transfers' callbacks, which stay on the loop thread.
///
/// Thread-safe. ``build(_:then:)`` returns at once and calls `then` exactly once, on the builder's queue.
final class CurlResponseBuilder: Sendable {
    private let queue = DispatchQueue(label: "nuke.curl-responses")

    /// Creates a builder (its queue starts a thread only while it has work).
    init() {}

    /// Builds a response for every element of `batch`, then calls `then` with them (`nil` where Foundation
    /// refused one), in the batch's order.
    func build(
        _ batch: [CurlResponseParts],
        then: @escaping @Sendable ([(id: Int, response: HTTPURLResponse?)]) -> Void
    ) {
        queue.async {
            then(batch.map { ($0.id, $0.makeResponse()) })
        }
    }
}
