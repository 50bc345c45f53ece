import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Shares tasks between equivalent requests: one live task per key. The keys (``DataKey``, ``ImageKey``,
/// ``LoadKey``, below) say which requests are equivalent at each stage of the graph.
final class TaskPool<Key: Hashable, PooledTask: PoolableTask> {
    private let isCoalescingEnabled: Bool
    private let onJoin: @Sendable () -> Void
    private var tasks: [Key: PooledTask] = [:]

    /// - Parameter onJoin: Called each time a caller gets a task that was already live.
    init(isCoalescingEnabled: Bool, onJoin: @escaping @Sendable () -> Void = {}) {
        self.isCoalescingEnabled = isCoalescingEnabled
        self.onJoin = onJoin
    }

    /// The number of live shared tasks.
    var count: Int { tasks.count }

    /// Returns the live task for `key`, or makes one that leaves the pool when it is disposed.
    func task(for key: @autoclosure () -> Key, make: () -> PooledTask) -> PooledTask {
        guard isCoalescingEnabled else {
            return make()
        }
        let key = key()
        if let task = tasks[key] {
            onJoin()
            return task
        }
        let task = make()
        tasks[key] = task
        task.onDisposed = { [self, task] in
            guard tasks[key] === task else { return }
            self.tasks[key] = nil
        }
        return task
    }
}

/// A task a ``TaskPool`` can hold.
protocol PoolableTask: AnyObject {
    var onDisposed: (() -> Void)? { get set }
}

extension PipelineTask: PoolableTask {}

// MARK: The keys of the pools

/// Requests with equal data keys load the same bytes: the image identity plus every field of the URL
/// request that can change the response.
///
/// Each key is hashed once, when it is made (``precomputedHash``): a pool looks its key up, inserts it and removes it,
/// and those hash the stored value, not the image ID's string again.
struct DataKey: PrecomputedHashKey, Sendable {
    /// The hash of the fields below; compared first, so unequal keys usually differ at once.
    fileprivate let precomputedHash: Int
    let imageID: String?
    let options: ImageRequest.Options
    let cachePolicy: UInt?
    let method: String?
    let headers: [String: String]?
    let body: Data?

    init(_ request: ImageRequest) {
        imageID = request.imageID
        // Cache options don't split the download (Nuke's behaviour): a request that reloads joins a load that
        // is under way. Only `returnCacheDataDontLoad` does, so a request that may load never waits on one
        // that may not.
        options = request.options.intersection(.returnCacheDataDontLoad)
        if case let .urlRequest(urlRequest) = request.resource {
            cachePolicy = urlRequest.cachePolicy.rawValue
            method = urlRequest.httpMethod.flatMap { $0.uppercased() == "GET" ? nil : $0 }
            headers = urlRequest.allHTTPHeaderFields.flatMap { $0.isEmpty ? nil : $0 }
            body = urlRequest.httpBody
        } else {
            // The same as `URLRequest(url:)`, so both forms of a request share the download.
            cachePolicy = URLRequest.CachePolicy.useProtocolCachePolicy.rawValue
            method = nil
            headers = nil
            body = nil
        }
        precomputedHash = Self.hash(imageID, options.rawValue, cachePolicy, method, headers, body)
    }
}

/// Requests with equal image keys share a decode: same bytes, same scale, same thumbnail. Hashed once, when it is
/// made, like ``DataKey``.
struct ImageKey: PrecomputedHashKey {
    fileprivate let precomputedHash: Int
    let data: DataKey
    let scale: Float?
    let thumbnail: ImageRequest.ThumbnailOptions?

    init(_ request: ImageRequest) {
        self.init(data: DataKey(request), request: request)
    }

    /// The key of `request`, whose data key `data` is already made.
    init(data: DataKey, request: ImageRequest) {
        self.data = data
        scale = request.scale
        thumbnail = request.thumbnail
        precomputedHash = Self.hash(data, scale, thumbnail)
    }
}

/// Requests with equal load keys share the whole result: same decode, options and processors. Hashed once, when it
/// is made, like ``DataKey``.
struct LoadKey: PrecomputedHashKey {
    fileprivate let precomputedHash: Int
    let image: ImageKey
    let options: ImageRequest.Options
    let processors: [AnyHashable]

    init(_ request: ImageRequest) {
        self.init(image: ImageKey(request), request: request)
    }

    /// The key of `request`, whose image key `image` is already made.
    init(image: ImageKey, request: ImageRequest) {
        self.image = image
        options = request.options
        processors = request.processors.map(\.hashableIdentifier)
        precomputedHash = Self.hash(image, options.rawValue, processors)
    }
}

/// A key hashed once, when it is made: a pool looks it up, inserts it and removes it, and those feed the hasher only
/// the stored value. `precomputedHash` is the key's first stored property, so `==` compares it first and unequal
/// keys usually differ at once.
private protocol PrecomputedHashKey: Hashable {
    var precomputedHash: Int { get }
}

extension PrecomputedHashKey {
    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    /// The hash of a key's fields.
    static func hash<each Field: Hashable>(_ fields: repeat each Field) -> Int {
        var hasher = Hasher()
        repeat hasher.combine(each fields)
        return hasher.finalize()
    }
}
