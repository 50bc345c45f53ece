import Foundation
public import NukeCore

extension ImageService {
    /// What the service accepts and how it answers. The pipeline it is given decides the rest: its loader, its
    /// decoders (and their pixel limits), its caches, its `maximumResponseDataSize` (the source byte limit).
    public struct Configuration: Sendable {
        /// Checks signatures; `nil` turns signing off, and any signature segment (`unsafe`, `insecure`, `_`) is
        /// accepted.
        public var signer: URLSigner?
        /// Which sources requests may name.
        public var sources = SourcePolicy()
        /// An encoder per output format, made for a quality from 1 to 100. Formats without one are never negotiated,
        /// and a URL that asks for one is answered 415.
        public var encoders: [OutputFormat: @Sendable (_ quality: Int) -> any ImageEncoding]
        /// The quality when the URL gives none. Default 80 (imgproxy's).
        public var defaultQuality = 80
        /// The largest width or height of a result. Default 8192.
        public var maximumResultDimension = 8_192
        /// The `max-age` of successful responses, in seconds. Default one year (imgproxy's): results are named by
        /// their URL, and a source that changes gets a new `ETag`.
        public var timeToLive = 31_536_000
        /// How many results are made at once (load, decode, process, encode). Default: the number of cores.
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        /// How many more requests for results may wait for a worker; beyond it, `429`. Default 256.
        public var queueLimit = 256
        /// The bytes of encoded results kept in memory. Default 128 MB.
        public var resultCacheCostLimit = 128 << 20
        /// Where encoded results are also kept (a disk cache, Redis: a cache instances share), read when a result is
        /// not in memory, so another instance serves it with no load, decode or encode; `nil` (the default) keeps
        /// results in memory only. Results stay there until the cache evicts them (or its time to live ends): a
        /// source that changes under its URL is seen once they are gone.
        public var resultDataCache: (any DataCaching)?
        /// How long loading and decoding a source may take, in seconds, before the request is answered `504`.
        /// Default 10.
        public var sourceTimeout: Double = 10
        /// How long a request may wait for a worker, in seconds, before it is answered `503`. Default 10.
        public var maximumQueueWait: Double = 10
        /// Called with one access-log line per request; `nil` logs nothing.
        public var log: (@Sendable (String) -> Void)?

        /// A configuration with the given encoders and every other setting at its default.
        public init(encoders: [OutputFormat: @Sendable (_ quality: Int) -> any ImageEncoding]) {
            self.encoders = encoders
        }
    }
}
