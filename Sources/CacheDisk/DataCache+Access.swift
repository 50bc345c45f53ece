import NukeCore
public import Foundation

extension DataCache {
    /// The data for `key`, or `nil`; setting `nil` removes it. The same as ``cachedData(for:)``,
    /// ``storeData(_:for:)`` and ``removeData(for:)``.
    public subscript(key: String) -> Data? {
        get { cachedData(for: key) }
        set {
            if let newValue { storeData(newValue, for: key) } else { removeData(for: key) }
        }
    }

    /// The data stored for `key`, or `nil` (always for a key that is not cached: see ``filename(for:)-method``).
    ///
    /// Sees staged changes first; otherwise reads the entry file and verifies its length, key and checksum. A
    /// damaged or expired entry is a miss and its file is removed in the background; so is another key's file at a
    /// default name, while at a custom name (two keys sharing it, see ``FilenameGenerator``) it is a miss and stays.
    /// A hit moves the entry
    /// to the front of the least-recently-used order. Blocks on file I/O, never on other cache work.
    public func cachedData(for key: String) -> Data? {
        let key = DataCache.canonicalKey(key)
        let now = clock()
        guard let name = entryName(forCanonicalKey: key) else { return recordMiss() }
        let digest = name.digest
        let (staged, knownSize) = state.withLock { ($0.staging.lookup(key), $0.index[digest]?.size) }
        switch staged {
        case .data(let data, let expiry):
            guard expiry == 0 || expiry > now else { return recordMiss() }
            accesses.withLock { $0.hitCount += 1 }
            return data
        case .removed:
            return recordMiss()
        case .notStaged:
            break
        }
        let expectedSize = knownSize.map { EntryFile.fileSize(keyCount: key.utf8.count, payloadCount: Int($0)) }
        switch EntryFile.read(in: rootDirectory, name: name.fileName, key: key, expectedSize: expectedSize) {
        case .hit(let data, let expiry, let identity):
            guard expiry == 0 || expiry > now else {
                if let identity { scheduleRemoval(of: name, ifStill: identity, isDamaged: false) }
                return recordMiss()
            }
            switch accesses.withLock({ $0.recordHit(of: digest, now: now) }) {
            case .alreadyScheduled: break
            case .inOneSecond: scheduleAccessCommit()
            case .now: queue.async { [weak self] in self?.performFlush(for: nil) }
            }
            return data
        case .missing:
            if state.withLock({ $0.index[digest] != nil }) {
                scheduleRemoval(of: name, ifStill: nil, isDamaged: false)
            }
            return recordMiss()
        case .otherKey(let identity) where name.isDefault, .damaged(let identity):
            state.withLock { $0.statistics.damagedEntryCount += 1 }
            scheduleRemoval(of: name, ifStill: identity, isDamaged: true)
            return recordMiss()
        case .otherKey:
            return recordMiss()
        case .failed(let error):
            state.withLock { $0.lastError = error }
            return recordMiss()
        }
    }

    /// `true` if data is stored for `key`, without reading the entry file: checks staged changes, then whether
    /// the file exists and, if the index knows it, that it has not expired. A damaged file still counts until
    /// a read finds out.
    public func containsData(for key: String) -> Bool {
        let key = DataCache.canonicalKey(key)
        guard let name = entryName(forCanonicalKey: key) else { return false }
        let now = clock()
        switch state.withLock({ $0.staging.lookup(key) }) {
        case .data(_, let expiry): return expiry == 0 || expiry > now
        case .removed: return false
        case .notStaged: break
        }
        guard let status = try? FileSystem.status(layout.entryPath(name.fileName)), !FileSystem.isDirectory(status)
        else { return false }
        return state.withLock { !($0.index[name.digest]?.isExpired(at: now) ?? false) }
    }

    /// Stages `data` for `key`, replacing any earlier value, and returns immediately; a background queue
    /// writes it. Reads see it at once.
    ///
    /// Does nothing for a key that is not cached: the empty key, or one the ``FilenameGenerator`` gives no valid
    /// name.
    ///
    /// Returns only after writing to disk itself when staged changes would go over ``stagingLimit``.
    public func storeData(_ data: Data, for key: String) {
        storeData(data, for: key, ttl: nil)
    }

    /// Stages `data` for `key` with a time to live: after `ttl` seconds reads miss and sweeps remove it.
    /// `nil` keeps it until evicted; a `ttl` of zero or less removes the key instead. Returns immediately.
    ///
    /// Data larger than ``sizeLimit`` is not stored (and any earlier value is removed), since keeping it would
    /// evict everything else. Does nothing for a key that is not cached (see ``storeData(_:for:)``).
    public func storeData(_ data: Data, for key: String, ttl: TimeInterval?) {
        let expiry: Int64
        switch ttl {
        case nil: expiry = 0
        case let ttl? where ttl > 0: expiry = clock() &+ Int64(min(ttl, 1e9) * 1e9)
        default:
            removeData(for: key)
            return
        }
        let key = DataCache.canonicalKey(key)
        guard entryName(forCanonicalKey: key) != nil else { return }
        let isTooLarge = data.count > state.withLock { $0.sizeLimit }
        stage(isTooLarge ? .remove : .write(data, expiry: expiry), for: key)
    }

    /// Stages the removal of `key`'s data and returns immediately (unless ``stagingLimit`` is reached, as for
    /// ``storeData(_:for:)``). Reads miss at once.
    public func removeData(for key: String) {
        let key = DataCache.canonicalKey(key)
        guard entryName(forCanonicalKey: key) != nil else { return }
        stage(.remove, for: key)
    }

    /// Stages the removal of every entry in the directory (including those written by other instances) and
    /// returns immediately. Reads miss at once; data stored after this call is kept.
    public func removeAll() {
        state.withLock { $0.staging.stageRemoveAll() }
        scheduleFlush()
    }

    /// The latest time of each digest in `accesses`.
    static func latestAccesses(_ accesses: [(digest: KeyDigest, time: Int64)]) -> [KeyDigest: Int64] {
        Dictionary(accesses, uniquingKeysWith: max)
    }

    private func recordMiss() -> Data? {
        state.withLock { $0.statistics.missCount += 1 }
        return nil
    }
}
