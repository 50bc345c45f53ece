extension ImagePipeline {
    /// Whether the disk cache follows the HTTP caching headers of the responses it stores; see
    /// ``Configuration/httpCachePolicy``, whose default is ``ignoreHeaders`` (Nuke's behaviour).
    ///
    /// Choose ``ignoreHeaders`` when stored images should serve until evicted: apps that must work offline, images
    /// whose URL changes when their content does (most CDNs and image hosts), caches shared by a fleet that should
    /// answer without asking the origin. Choose ``followHeaders`` when images change under the same URL and the
    /// origin's headers say how long they stay valid, or when `no-store` must be honoured.
    public enum HTTPCachePolicy: Sendable, Hashable {
        /// The rules of a private HTTP cache (RFC 9111): each original is stored with its response's validators
        /// and freshness (``HTTPCacheMetadata``); a fresh entry is served with no request; a stale one is
        /// revalidated with a conditional request (`If-None-Match`, `If-Modified-Since`; a `304` serves the stored
        /// bytes) or loaded again; `no-store` responses are not written to disk; `stale-while-revalidate` serves
        /// the stale image at once and revalidates in the background; `stale-if-error` serves it when the
        /// revalidation fails. An error status the RFC lets a cache store (a `404` or `410` by `Last-Modified`, any
        /// status with `max-age`, `Expires` or `public`) is stored without a body, and while fresh requests fail with
        /// ``CachedHTTPStatusError`` without loading (the loader must hand the error's response over first, as the
        /// plugin loaders do; see ``DataLoading``). Encoded, processed images follow their original: once the response they were
        /// made from is stale they are made again from the revalidated original. Applies to `http(s)` loads;
        /// closure and `file:`/`data:` sources carry no headers and are fresh until evicted.
        case followHeaders
        /// Nuke's behaviour and the default: stored data is fresh until the cache evicts it, whatever the server
        /// said, so it is served with no request (also offline). Entries written under ``followHeaders`` are read
        /// too (their body, without the metadata), and what is stored under this policy carries no metadata: under
        /// ``followHeaders`` later, such an entry is fresh until evicted, like any entry without headers.
        case ignoreHeaders
    }
}

/// An error of a data loader that knows the HTTP status of the response that caused it. The pipeline reads it to
/// tell a client error (4xx: the resource is gone or forbidden) from a server error or a network failure, after
/// which `stale-if-error` lets a stale cached image be served. Adopted by the loader plugins' errors; a custom
/// loader's errors should adopt it too.
public protocol HTTPStatusCodeError: Error {
    /// The HTTP status of the response, or `nil` when the error didn't come from one.
    var httpStatusCode: Int? { get }
}
