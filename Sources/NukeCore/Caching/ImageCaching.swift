/// Stores decoded, processed images in memory. Implemented by ``ImageCache`` and by apps.
///
/// Every member is safe to call from any thread.
public protocol ImageCaching: AnyObject, Sendable {
    /// The image stored for `key`; setting `nil` removes it.
    subscript(key: ImageCacheKey) -> ImageContainer? { get set }
    /// Removes all images.
    func removeAll()
}

/// The memory cache key of a request: the image identity, scale, thumbnail and processors.
///
/// Two requests with equal keys produce the same image, whatever their priority or cache policy.
// @unchecked: `processors` holds processors' `hashableIdentifier`s, which are immutable values (strings or
// `Sendable` processors); the key is never mutated after creation.
public struct ImageCacheKey: Hashable, @unchecked Sendable {
    let imageID: String?
    let scale: Float?
    let thumbnail: ImageRequest.ThumbnailOptions?
    let processors: [AnyHashable]
    /// A custom key (``init(key:)``); never equal to a request's key.
    let custom: String?

    /// Creates the key of `request`.
    public init(request: ImageRequest) {
        self.imageID = request.imageID
        self.scale = request.scale
        self.thumbnail = request.thumbnail
        self.processors = request.processors.map(\.hashableIdentifier)
        self.custom = nil
    }

    /// Creates a key from a custom string, such as the one a delegate returns from
    /// ``ImagePipeline/Delegate/cacheKey(for:pipeline:)``. Equal strings give equal keys; a custom key never
    /// equals a request's key.
    public init(key: String) {
        self.imageID = nil
        self.scale = nil
        self.thumbnail = nil
        self.processors = []
        self.custom = key
    }
}
