public import Foundation

/// A ``DataCaching`` made of caches in layers, the fastest first — typically a `DataCache` on the machine's disk in
/// front of a cache the fleet shares (`RedisDataCache`):
///
/// ```swift
/// let cache = TieredDataCache(local: try DataCache(name: "thumbnails"), shared: redis)
/// let pipeline = ImagePipeline { $0.dataCache = cache }
/// ```
///
/// - **Reads** try each tier in order; a hit in a later tier is copied into the earlier ones (a node fills its disk
///   from the shared cache), so the next read of it stays local.
/// - **Writes and removals** go to every tier (write-through).
/// - It keeps ``DataCaching``'s contract when its tiers do: a fill never brings back data that a `storeData` or
///   `removeData` of the same key replaced while the read was under way (each key's writes are counted, and a fill
///   that saw a write start after its read is dropped).
public final class TieredDataCache: DataCaching, Sendable {
    /// The tiers, the first read first.
    public let tiers: [any DataCaching]
    /// Write counts per stripe of keys; a fill checks that its stripe's count didn't move since its read began.
    private let stripes: [LockedValueBox<UInt64>]

    /// A cache over `tiers`, read in that order (at least one).
    public init(_ tiers: [any DataCaching]) {
        precondition(!tiers.isEmpty, "TieredDataCache needs at least one tier")
        self.tiers = tiers
        stripes = (0..<64).map { _ in LockedValueBox<UInt64>(0) }
    }

    /// A cache that reads `local` first, then `shared`, filling `local` on a shared hit.
    public convenience init(local: any DataCaching, shared: any DataCaching) {
        self.init([local, shared])
    }

    private func stripe(for key: String) -> LockedValueBox<UInt64> {
        var hasher = Hasher()
        hasher.combine(key)
        return stripes[Int(UInt(bitPattern: hasher.finalize()) % UInt(stripes.count))]
    }

    public func cachedData(for key: String) -> Data? {
        let stripe = stripe(for: key)
        let generation = stripe.snapshot
        for (index, tier) in tiers.enumerated() {
            guard let data = tier.cachedData(for: key) else { continue }
            if index > 0 {
                stripe.withLock { current in
                    guard current == generation else { return }  // Replaced or removed meanwhile.
                    for earlier in tiers[..<index] { earlier.storeData(data, for: key) }
                }
            }
            return data
        }
        return nil
    }

    public func containsData(for key: String) -> Bool {
        tiers.contains { $0.containsData(for: key) }
    }

    public func storeData(_ data: Data, for key: String) {
        stripe(for: key).withLock { generation in
            generation &+= 1
            for tier in tiers { tier.storeData(data, for: key) }
        }
    }

    public func removeData(for key: String) {
        stripe(for: key).withLock { generation in
            generation &+= 1
            for tier in tiers { tier.removeData(for: key) }
        }
    }

    /// Clears every tier while holding every stripe (taken in order), so no fill of a read under way can land after
    /// a tier was cleared and bring an entry back.
    public func removeAll() {
        func clear(holdingStripesFrom index: Int) {
            guard index < stripes.count else {
                for tier in tiers { tier.removeAll() }
                return
            }
            stripes[index].withLock { generation in
                generation &+= 1
                clear(holdingStripesFrom: index + 1)
            }
        }
        clear(holdingStripesFrom: 0)
    }
}
