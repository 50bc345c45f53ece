import NukeCore
import Foundation

extension DataCache {
    /// Makes the name of the file that stores a key's entry, or `nil` to not cache that key.
    ///
    /// ## Contract
    /// - It receives the key normalized to NFC (see ``DataCache``) and is never called with the empty key.
    /// - It must be deterministic, and should give different keys different names. Keys that share a name share a
    ///   file: the last write wins and a read of the other key is a miss (the file records its key), never the
    ///   other key's data.
    /// - Returning `nil` means the key is not cached: storing it does nothing, reading it misses.
    /// - The name must be a single file name the cache may own: not empty, at most 255 UTF-8 bytes, without `/`
    ///   or NUL, and not starting with `.` (which also rules out `.` and `..`). The cache never creates a file
    ///   outside its directory: a key whose name breaks these rules is treated as not cached, and ``lastError``
    ///   becomes ``Error/invalidFilename(key:filename:)``.
    /// - It may be called from any thread, often, and with no lock held.
    ///
    /// ```swift
    /// // Keep the extension, so files handed out by `url(for:)` open in the right viewer.
    /// let cache = try DataCache(name: "thumbnails") { key in
    ///     DataCache.filename(for: key).map { $0 + ".jpg" }
    /// }
    /// ```
    public typealias FilenameGenerator = @Sendable (_ key: String) -> String?

    /// The default file name for `key`: the 64 lowercase hexadecimal digits of the SHA-256 of its UTF-8 bytes
    /// (after NFC normalization), or `nil` for the empty key, which is never cached.
    ///
    /// A fixed-length digest means that no key can name a path outside the directory and that two keys never
    /// share a file.
    public static func filename(for key: String) -> String? {
        guard !key.isEmpty else { return nil }
        return KeyDigest(key: canonicalKey(key))?.fileName
    }

    /// The name of the file that stores (or would store) `key`'s entry, from this cache's ``FilenameGenerator``; `nil`
    /// if the key is not cached (the empty key, a generator that returns `nil`, or a name the cache rejects).
    ///
    /// The file holds a header before the data: to read the data as a file, use ``url(for:)``.
    public func filename(for key: String) -> String? {
        entryName(forCanonicalKey: DataCache.canonicalKey(key))?.fileName
    }

    /// The checked name of `key`'s entry file; `nil` if the key is not cached. `key` is canonical.
    ///
    /// A name that breaks the rules of ``FilenameGenerator`` is reported as ``lastError``.
    func entryName(forCanonicalKey key: String) -> EntryName? {
        guard !key.isEmpty, let fileName = filenameGenerator(key) else { return nil }
        guard let name = EntryName(fileName: fileName) else {
            state.withLock { $0.lastError = Error.invalidFilename(key: key, filename: fileName) }
            return nil
        }
        if !name.isDefault {
            state.withLock { state in
                guard state.customNames[name.digest] == nil else { return }
                // Only a cache of names (lookups of keys never stored add to it too): bounded, and refilled from
                // the directory by `entryName(for:)` when a name it no longer holds is needed.
                if state.customNames.count >= DataCache.customNameCacheLimit { state.customNames.removeAll() }
                state.customNames[name.digest] = name.fileName
            }
        }
        return name
    }

    /// The most custom file names kept in memory before the cache of names starts over.
    static let customNameCacheLimit = 10_000

    /// The name of the entry file of `digest`, which the index knows from the journal; `nil` if no file in the
    /// directory has that digest. Lists the directory only for a custom name this instance has not seen yet.
    /// Call with the directory lock held.
    func entryName(for digest: KeyDigest) throws -> EntryName? {
        if let fileName = state.withLock({ $0.customNames[digest] }) {
            return EntryName(fileName: fileName)
        }
        let name = EntryName(digest: digest)
        if try FileSystem.status(layout.entryPath(name.fileName)) != nil { return name }
        var found: EntryName?
        for fileName in try FileSystem.contentsOfDirectory(layout.root) ?? [] {
            guard let candidate = EntryName(fileName: fileName), !candidate.isDefault else { continue }
            state.withLock { $0.customNames[candidate.digest] = candidate.fileName }
            if candidate.digest == digest { found = candidate }
        }
        return found
    }
}
