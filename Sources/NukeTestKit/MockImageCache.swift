public import NukeCore

/// An in-memory `ImageCaching` without limits that counts reads and writes. Counts are per instance.
public final class MockImageCache: ImageCaching {
    private struct State {
        var images: [ImageCacheKey: ImageContainer] = [:]
        var readCount = 0
        var writeCount = 0
    }

    private let state = LockedValueBox(State())

    /// Creates an empty cache.
    public init() {}

    /// The number of subscript reads, hits and misses alike.
    public var readCount: Int {
        state.withLock { $0.readCount }
    }

    /// The number of subscript writes, including writes of `nil` (removals).
    public var writeCount: Int {
        state.withLock { $0.writeCount }
    }

    /// The number of images stored.
    public var count: Int {
        state.withLock { $0.images.count }
    }

    /// The image stored for `key`; setting `nil` removes it. Reading counts as a read, setting as a write.
    public subscript(key: ImageCacheKey) -> ImageContainer? {
        get {
            state.withLock { state in
                state.readCount += 1
                return state.images[key]
            }
        }
        set {
            state.withLock { state in
                state.writeCount += 1
                state.images[key] = newValue
            }
        }
    }

    /// Removes all images; counters are kept.
    public func removeAll() {
        state.withLock { $0.images.removeAll() }
    }
}
