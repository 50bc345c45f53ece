/// The memory cache key of a request: the image identity, scale, thumbnail and processors.
///
/// Two requests with equal keys produce the same image, whatever their priority or cache policy.
///
/// A key is one reference to immutable fields and their precomputed hash, so copying it retains one object,
/// hashing it feeds one integer to the hasher, and comparing two copies of the same key is a pointer
/// comparison. ``init(request:)`` computes a request's key once and keeps it with the request (until the
/// request's image identity, processors, thumbnail or user info change), so repeated lookups of one request
/// value cost neither string building nor string hashing.
public struct ImageCacheKey: Hashable, Sendable {
    /// The fields and their hash, shared by every copy of the key.
    let storage: Storage

    /// Creates the key of `request`.
    ///
    /// The first call on a request value computes the key; later calls on that value (and its unmodified
    /// copies) return it without work.
    public init(request: ImageRequest) {
        self = request.imageCacheKey
    }

    /// Creates a key from a custom string, such as the one a delegate returns from
    /// ``ImagePipeline/Delegate/cacheKey(for:pipeline:)``. Equal strings give equal keys; a custom key never
    /// equals a request's key.
    public init(key: String) {
        self.storage = Storage(Fields(imageID: nil, scale: nil, thumbnail: nil, processors: [], custom: key))
    }

    /// Wraps computed fields; ``ImageRequest`` uses it to build the key it keeps.
    init(storage: Storage) {
        self.storage = storage
    }

    /// Feeds the precomputed hash of the fields to `hasher`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.hash)
    }

    /// `true` if both keys name the same image: the same storage, or equal hashes and equal fields.
    public static func == (lhs: ImageCacheKey, rhs: ImageCacheKey) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.storage.hash == rhs.storage.hash && lhs.storage.fields == rhs.storage.fields)
    }
}

extension ImageCacheKey {
    /// What a key compares: every input of the image, and the custom string of ``init(key:)``.
    struct Fields: Hashable {
        /// ``ImageRequest/imageID``.
        let imageID: String?
        /// ``ImageRequest/scale``.
        let scale: Float?
        /// ``ImageRequest/thumbnail``.
        let thumbnail: ImageRequest.ThumbnailOptions?
        /// The processors' ``ImageProcessing/hashableIdentifier``s, in order.
        let processors: [AnyHashable]
        /// A custom key (``init(key:)``); `nil` for a request's key, so the two never compare equal.
        let custom: String?

        /// The fields of `request`'s key.
        init(request: ImageRequest) {
            self.init(
                imageID: request.imageID, scale: request.scale, thumbnail: request.thumbnail,
                processors: request.processors.map(\.hashableIdentifier), custom: nil)
        }

        /// Creates fields from their values.
        init(
            imageID: String?, scale: Float?, thumbnail: ImageRequest.ThumbnailOptions?, processors: [AnyHashable],
            custom: String?
        ) {
            self.imageID = imageID
            self.scale = scale
            self.thumbnail = thumbnail
            self.processors = processors
            self.custom = custom
        }
    }

    /// A key's fields and their hash, computed once and never mutated.
    final class Storage: @unchecked Sendable {
        // @unchecked: both properties are `let`s set in `init`; `fields.processors` holds processors'
        // `hashableIdentifier`s, immutable values (strings or `Sendable` processors) that no one mutates.

        /// What the key compares.
        let fields: Fields
        /// `fields.hashValue`, computed once.
        let hash: Int

        /// Stores `fields` and computes their hash.
        init(_ fields: Fields) {
            self.fields = fields
            self.hash = fields.hashValue
        }
    }
}
