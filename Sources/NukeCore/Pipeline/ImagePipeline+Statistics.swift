extension ImagePipeline {
    /// Counts of the work a pipeline did since it was created or last reset — what was shared and what was
    /// done again. Read with ``ImagePipeline/statistics``; reset with ``ImagePipeline/resetStatistics()``.
    ///
    /// Counting costs one uncontended lock per event, so it is always on.
    public struct Statistics: Sendable, Hashable, CustomStringConvertible {
        /// Loads started from a source: the data loader, a `file:`/`data:` URL, or a request's closure.
        /// Requests that share a load count once.
        public var dataLoadsStarted = 0
        /// Bytes received from those loads.
        public var bytesLoaded: Int64 = 0
        /// Final decodes of complete data (downloaded, or read from the disk cache), not progressive previews.
        public var decodes = 0
        /// Processors applied to final images (previews not counted).
        public var processes = 0
        /// Times a request joined work already under way instead of starting its own, at any stage (load,
        /// decode, processing): one per joining request and stage.
        public var coalescedJoins = 0
        /// Requests served from the memory cache.
        public var memoryCacheHits = 0
        /// Reads from the disk cache that found data (original data or an encoded processed image).
        public var diskCacheHits = 0
        /// Image and data tasks cancelled before they finished.
        public var cancellations = 0
        /// Conditional requests for stale disk cache entries answered `304 Not Modified`: the stored bytes were
        /// used again (``ImagePipeline/HTTPCachePolicy/followHeaders``).
        public var revalidations = 0
        /// Stale disk cache entries loaded again: a conditional request answered with new bytes, or a stale entry
        /// without a validator.
        public var refetches = 0
        /// Stale disk cache entries served as they were (``ImageResponse/isStale``).
        public var staleHits = 0

        /// Creates empty statistics.
        public init() {}

        public var description: String {
            "Statistics(loads: \(dataLoadsStarted), bytes: \(bytesLoaded), decodes: \(decodes), "
                + "processes: \(processes), coalesced: \(coalescedJoins), memory hits: \(memoryCacheHits), "
                + "disk hits: \(diskCacheHits), cancellations: \(cancellations), revalidations: \(revalidations), "
                + "refetches: \(refetches), stale hits: \(staleHits))"
        }
    }

    /// A snapshot of the work done so far (see ``Statistics``). Safe from any thread.
    public var statistics: Statistics { core.statistics.snapshot }

    /// Sets every count of ``statistics`` to zero.
    public func resetStatistics() {
        core.statistics.withLock { $0 = Statistics() }
    }
}
