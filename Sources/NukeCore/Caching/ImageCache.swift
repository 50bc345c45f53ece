public import Foundation

/// An in-memory LRU cache of decoded, processed images, with a cost limit (bytes), a count limit and an
/// optional time to live.
///
/// The cost of an entry is the size of its pixels plus any original data the container keeps. Entries
/// costlier than ``entryCostLimit`` of ``costLimit`` are not stored. Every member is safe to call from any
/// thread.
public final class ImageCache: ImageCaching {
    /// The cache used by default pipelines.
    public static let shared = ImageCache()

    private let cache: Cache<ImageCacheKey, ImageContainer>

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - costLimit: The total cost limit in bytes; the default is ``defaultCostLimit``.
    ///   - countLimit: The maximum number of images; unlimited by default.
    public init(costLimit: Int = ImageCache.defaultCostLimit, countLimit: Int = Int.max) {
        cache = Cache(costLimit: costLimit, countLimit: countLimit)
    }

    /// The default cost limit: 20 % of the physical memory, at most 512 MB.
    public static var defaultCostLimit: Int {
        let physical = ProcessInfo.processInfo.physicalMemory
        let limit = physical / 5
        return Int(min(limit, 512 * 1024 * 1024))
    }

    /// The total cost limit in bytes; lowering it evicts least recently used images.
    public var costLimit: Int {
        get { cache.costLimit }
        set { cache.costLimit = newValue }
    }

    /// The maximum number of images; lowering it evicts least recently used images.
    public var countLimit: Int {
        get { cache.countLimit }
        set { cache.countLimit = newValue }
    }

    /// The largest share of ``costLimit`` one entry may take (default 0.1); costlier entries aren't stored.
    public var entryCostLimit: Double {
        get { cache.entryCostLimit }
        set { cache.entryCostLimit = newValue }
    }

    /// How long an entry stays valid after it is stored, in seconds; `nil` (the default) means forever.
    public var ttl: TimeInterval? {
        get { cache.ttl }
        set { cache.ttl = newValue }
    }

    /// The total cost of the stored images.
    public var totalCost: Int { cache.totalCost }

    /// The number of stored images.
    public var totalCount: Int { cache.totalCount }

    /// The image stored for `key`; reading marks it recently used, setting `nil` removes it.
    public subscript(key: ImageCacheKey) -> ImageContainer? {
        get { cache.value(forKey: key) }
        set {
            if let newValue {
                cache.set(newValue, forKey: key, cost: cost(for: newValue))
            } else {
                cache.removeValue(forKey: key)
            }
        }
    }

    /// Stores `container` for `key` with a time to live that overrides ``ttl``.
    public func store(_ container: ImageContainer, for key: ImageCacheKey, ttl: TimeInterval?) {
        cache.set(container, forKey: key, cost: cost(for: container), ttl: ttl)
    }

    /// Removes all images.
    public func removeAll() {
        cache.removeAll()
    }

    /// Evicts least recently used images until the total cost is at most `cost`.
    public func trim(toCost cost: Int) {
        cache.trim(toCost: cost)
    }

    /// Evicts least recently used images until at most `count` remain.
    public func trim(toCount count: Int) {
        cache.trim(toCount: count)
    }

    /// The cost of a container: its pixel bytes plus its original data, and at least 1 (so an empty image
    /// still counts against the limits, as in Nuke).
    public func cost(for container: ImageContainer) -> Int {
        max(1, container.image.byteCount + (container.data?.count ?? 0))
    }
}
