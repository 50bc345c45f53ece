#if canImport(FoundationNetworking)
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The result of loading an image: the image, the request that produced it and where it came from.
public struct ImageResponse: Sendable {
    /// The image and its metadata.
    public var container: ImageContainer
    /// The request that produced the response.
    public var request: ImageRequest
    /// The response of the data loader, if the data was loaded (`nil` for cache hits).
    public var urlResponse: URLResponse?
    /// The cache the image came from, or `nil` when it was loaded.
    public var cacheType: CacheType?
    /// `true` when the image came from a disk cache entry that is no longer fresh by its HTTP headers: served
    /// while it is revalidated in the background (`stale-while-revalidate`), or because revalidating it failed
    /// (`stale-if-error`, or ``ImagePipeline/Configuration/isServingStaleDataOnFailure``), or because the request
    /// said ``ImageRequest/Options/returnCacheDataDontLoad``. An app can show it as possibly out of date.
    public var isStale = false
    /// The HTTP metadata of the original the image was made from, when the pipeline follows the headers.
    var httpMetadata: HTTPCacheMetadata?
    /// The pipeline's hold on the image's bytes in its byte budget, from the stage that made it until the app
    /// receives it; `nil` once delivered.
    var backlogTicket: ByteBudget.Ticket?

    /// The image.
    public var image: PlatformImage { container.image }

    /// `true` when the response carries a preview of a partially downloaded image.
    public var isPreview: Bool { container.isPreview }

    /// Creates a response.
    public init(
        container: ImageContainer,
        request: ImageRequest,
        urlResponse: URLResponse? = nil,
        cacheType: CacheType? = nil
    ) {
        self.container = container
        self.request = request
        self.urlResponse = urlResponse
        self.cacheType = cacheType
    }

    /// Where a cached response came from.
    public enum CacheType: Sendable, Hashable {
        /// The memory cache (decoded, processed image).
        case memory
        /// The disk cache (data that was decoded again).
        case disk
    }
}
