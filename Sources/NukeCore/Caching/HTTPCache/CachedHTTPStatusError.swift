public import Foundation

/// The error of a request answered by a stored error status: following HTTP headers
/// (``ImagePipeline/HTTPCachePolicy/followHeaders``), a response with a status outside 2xx that may be stored
/// (``HTTPCacheMetadata/isStorable``: a `404`, `410` or another heuristically cacheable status, or any status with
/// `max-age`, `Expires` or `public`) is kept in the disk cache without its body, and while it is fresh a request for the same
/// URL fails with this error, wrapped in ``ImagePipeline/Error/dataLoadingFailed(error:)``, without asking the
/// origin (RFC 9111's negative caching). Once it is stale the URL is loaded again.
///
/// It adopts ``HTTPStatusCodeError``, so code that reads the status of a loader's error reads this one the same way.
public struct CachedHTTPStatusError: HTTPStatusCodeError, Sendable, Hashable, CustomStringConvertible {
    /// The stored status.
    public let statusCode: Int
    /// The URL of the request.
    public let url: URL?
    /// What was stored of the response: its status, freshness and validators.
    public let metadata: HTTPCacheMetadata

    /// The error for `metadata`, stored for `url`.
    public init(metadata: HTTPCacheMetadata, url: URL?) {
        self.statusCode = metadata.statusCode
        self.url = url
        self.metadata = metadata
    }

    /// ``statusCode`` (``HTTPStatusCodeError``).
    public var httpStatusCode: Int? { statusCode }

    public var description: String {
        let remaining = max(0, metadata.freshnessLifetime - metadata.currentAge(at: Date()))
        return "The server answered \(statusCode) for '\(url?.absoluteString ?? "nil")' (a stored response, "
            + "fresh for \(Int(remaining.rounded(.up))) s more: the origin was not asked)"
    }
}
