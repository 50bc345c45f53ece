/// Stores decoded, processed images in memory. Implemented by ``ImageCache`` and by apps.
///
/// Every member is safe to call from any thread.
public protocol ImageCaching: AnyObject, Sendable {
    /// The image stored for `key`; setting `nil` removes it.
    subscript(key: ImageCacheKey) -> ImageContainer? { get set }
    /// Removes all images.
    func removeAll()
}
