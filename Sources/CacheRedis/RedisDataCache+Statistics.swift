extension RedisDataCache {
    /// Counts of what the cache did since it was created. Nothing a ``RedisDataCache`` does reaches the pipeline as
    /// an error: a server that is down, slow or full gives misses and dropped writes, counted here.
    public struct Statistics: Sendable, Hashable, CustomStringConvertible {
        /// Reads that returned data.
        public var hits = 0
        /// Reads that found nothing (or a value that failed its checks, also counted in ``damagedValues``).
        public var misses = 0
        /// Reads that gave up after ``Configuration/readTimeout`` (counted as misses too).
        public var timeouts = 0
        /// Reads skipped because their server was down and not yet due for a reconnection (counted as misses too).
        public var unavailable = 0
        /// Values that failed the checksum, belonged to another key, or weren't written by this cache.
        public var damagedValues = 0
        /// Writes (stores and removals) made on the server.
        public var writes = 0
        /// Writes dropped: the queue was full, the value was over the size limit, or the server refused or failed.
        public var droppedWrites = 0
        /// Connections made again after a server failed.
        public var reconnects = 0
        /// Commands that failed with an error reply or a broken connection.
        public var errors = 0

        public var description: String {
            "RedisDataCache.Statistics(hits: \(hits), misses: \(misses), timeouts: \(timeouts), unavailable: "
                + "\(unavailable), damaged: \(damagedValues), writes: \(writes), dropped: \(droppedWrites), "
                + "reconnects: \(reconnects), errors: \(errors))"
        }
    }
}
