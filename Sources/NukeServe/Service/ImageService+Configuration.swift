public import Foundation
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
        /// Whether `Accept` may choose JPEG XL (with a ``OutputFormat/jxl`` encoder in ``encoders``), as imgproxy's
        /// `IMGPROXY_AUTO_JXL` / `IMGPROXY_ENFORCE_JXL`; see ``FormatNegotiation/JXLDetection``. Default `.disabled`:
        /// only URLs that name `jxl` get it.
        public var jxlDetection = FormatNegotiation.JXLDetection.disabled
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
        /// How long processing and encoding a decoded source may take, in seconds, before the request is answered
        /// `504`. The time is checked before each step — every frame of an animation, the encoding — as imgproxy
        /// does: a codec call already running finishes (its result is then dropped), so a step of a huge result can
        /// overrun it by its own length; ``maximumResultDimension`` and the animation limits bound that. Default 10.
        public var processingTimeout: Double = 10
        /// How many frames of an animated source (GIF, WebP, AVIF sequence, JPEG XL) a result keeps: the first this
        /// many, processed one by one and encoded as an animation when the result's format has an
        /// `ImageAnimationEncoding` encoder (WebP, AVIF, JPEG XL), as imgproxy's `IMGPROXY_MAX_ANIMATION_FRAMES` does.
        /// Each frame first gets the pipeline's `ImagePipeline.Configuration.colorProfilePolicy`, as the pipeline
        /// gives the still (`ImagePipeline.Configuration.applyColorProfilePolicy(to:)`): converted to sRGB with its
        /// `ImagePipeline.Configuration.colorConverter`, or kept in the file's profile, which the encoder embeds.
        /// `1` (the default, imgproxy's too) serves every animation as its first frame, as does a format that can't
        /// animate (JPEG, PNG). Needs ``readAnimation``.
        public var maximumAnimationFrames = 1
        /// The most pixels the frames an animated result keeps may have together (canvas width × height × frames);
        /// more is `422`, as imgproxy counts an animation against its source resolution limit. Default 50 million.
        public var maximumAnimationPixelCount = 50_000_000
        /// Reads the frames of an animated source from its data (the decoded container's `data`), or returns `nil`
        /// for data that is no animation; it should read the container only, decoding no pixels (the `Animation`
        /// types of the GIF, WebP, AVIF and JPEG XL decoders do, their frames carrying the file's colour profile),
        /// and apply the decoders' own limits. `nil` (the default) serves every animation as its first frame.
        public var readAnimation: (@Sendable (Data) throws -> (any ImageAnimation)?)?
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
