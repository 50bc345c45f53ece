extension DataCache {
    /// Counts of what one ``DataCache`` instance did since it was created.
    ///
    /// A snapshot: read ``DataCache/statistics`` again for newer numbers. Byte counts are bytes of stored data,
    /// like ``DataCache/totalSize`` (the entry files' headers and keys are not counted).
    public struct Statistics: Sendable, Equatable {
        /// ``DataCache/cachedData(for:)`` calls that returned data (staged or from disk).
        public var hitCount = 0
        /// ``DataCache/cachedData(for:)`` calls that returned `nil`: absent, removed, expired or damaged.
        public var missCount = 0
        /// Entries written to disk.
        public var writeCount = 0
        /// Bytes of data written to disk in entry files.
        public var bytesWritten = 0
        /// Entries removed to stay under ``DataCache/sizeLimit`` or because they expired.
        public var evictionCount = 0
        /// Bytes of data of the entries counted by ``evictionCount``.
        public var bytesEvicted = 0
        /// Torn, corrupted or mismatched entry files that a read detected (and removed).
        public var damagedEntryCount = 0
        /// Writes that failed (see ``DataCache/lastError``) and were dropped.
        public var failedWriteCount = 0

        /// All zeros.
        public init() {}
    }
}
