public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Decodes data into an image. Codec plugins implement it (`ImageDecoders.PNG`, …) and register with
/// ``ImageDecoderRegistry``.
///
/// ## Contract
/// - `decode` runs off the caller's thread, on the pipeline's decoding queue; a decoder instance serves one
///   image (the pipeline asks the registry for a new one per image), so it may keep state between
///   progressive previews and the final decode.
/// - Corrupt, truncated or hostile input throws an error that names the format and the cause; it never
///   crashes, hangs or allocates without bound.
public protocol ImageDecoding: Sendable {
    /// Whether decoding is slow enough to need a thread of its own. Every decode here already runs off the
    /// task graph on ``ImagePipeline/Configuration/imageDecodingQueue``, so the value changes nothing;
    /// it exists for decoders written for Nuke. The default is `false`, as in Nuke.
    var isAsynchronous: Bool { get }

    /// Decodes the complete data.
    func decode(_ data: Data) throws -> ImageContainer

    /// Decodes a preview from partially downloaded data, or returns `nil` when there is nothing to show yet.
    /// The default returns `nil`.
    func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer?
}

extension ImageDecoding {
    public var isAsynchronous: Bool { false }

    public func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? { nil }
}

/// A decoder whose work is asynchronous (it awaits another service, a process, or a GPU). The pipeline awaits
/// ``decode(_:)-(Data)`` off its actor and counts the decode against
/// ``ImagePipeline/Configuration/imageDecodingQueue`` like any other.
///
/// Synchronous callers — ``ImagePipeline/Cache/cachedImage(for:caches:)`` reading from disk — use the
/// synchronous `decode`, which by default throws ``ImageDecodingError/synchronousDecodingUnsupported``.
public protocol AsyncImageDecoding: ImageDecoding {
    /// Decodes the complete data.
    func decode(_ data: Data) async throws -> ImageContainer
}

extension AsyncImageDecoding {
    /// `true`: the decoder's work is asynchronous.
    public var isAsynchronous: Bool { true }

    /// Throws ``ImageDecodingError/synchronousDecodingUnsupported``; implement it if the decoder can also work
    /// synchronously.
    public func decode(_ data: Data) throws -> ImageContainer {
        throw ImageDecodingError.synchronousDecodingUnsupported
    }
}

/// Errors a decoder may throw when it has nothing more specific to say.
public enum ImageDecodingError: Error, CustomStringConvertible, Sendable {
    /// The decoder failed for a reason it doesn't know.
    case unknown
    /// An ``AsyncImageDecoding`` decoder was asked to decode synchronously.
    case synchronousDecodingUnsupported

    public var description: String {
        switch self {
        case .unknown: "Unknown"
        case .synchronousDecodingUnsupported: "Synchronous decoding is not supported by this decoder"
        }
    }
}

/// What a decoder factory may look at to decide whether it handles the data.
public struct ImageDecodingContext: Sendable, CustomStringConvertible {
    /// The request being served (its ``ImageRequest/thumbnail`` and scale matter to decoders).
    public var request: ImageRequest
    /// The data downloaded so far (all of it when ``isCompleted``).
    public var data: Data
    /// `false` while the data is still downloading (progressive decoding).
    public var isCompleted: Bool
    /// The loader's response, if any (its `mimeType` helps to recognise formats such as SVG).
    public var urlResponse: URLResponse?
    /// The cache the data came from, if any.
    public var cacheType: ImageResponse.CacheType?
    /// How previews of partial data are made for this image (the delegate's choice), set in the contexts of
    /// partial data; `.incremental` in other contexts. Decoders may read it.
    public var previewPolicy: ImagePipeline.PreviewPolicy = .incremental
    /// The pipeline's ``ImagePipeline/Configuration/colorConverter`` when it converts decoded images to sRGB
    /// (``ImagePipeline/ColorProfilePolicy/convertToSRGB``), else `nil`. A decoder that writes pixels in rows
    /// may convert each band as it is written (``ColorConverting/makeRowConverter(for:isOpaque:)``), while the
    /// pixels are still in the CPU's caches and on other cores while it decodes the next rows, and then returns
    /// the image with a `nil` ``PlatformImage/colorProfile``; the pipeline converts any image that still has
    /// one after decoding.
    public var colorConverter: (any ColorConverting)?
    /// The value of Nuke 13.2's deprecated `maximumDecodedImageSize` (see `Deprecated.swift`), which nothing reads.
    var nuke13MaximumDecodedImageSize: Int?

    /// Where the pipeline that made this context looks decoders up; a "no decoder" error names it.
    var decoderLookup = ImageDecoderLookup.sharedRegistry

    /// The format sniffed from the first bytes of ``data``.
    public var type: AssetType? { AssetType(data) }

    /// Creates a context.
    public init(
        request: ImageRequest,
        data: Data,
        isCompleted: Bool = true,
        urlResponse: URLResponse? = nil,
        cacheType: ImageResponse.CacheType? = nil
    ) {
        self.request = request
        self.data = data
        self.isCompleted = isCompleted
        self.urlResponse = urlResponse
        self.cacheType = cacheType
    }

    public var description: String {
        "ImageDecodingContext(request: \(request), data: \(data.count) bytes, isCompleted: \(isCompleted))"
    }
}

/// Namespace for decoders; codec plugins add theirs (`ImageDecoders.PNG`, …).
public enum ImageDecoders {}

extension ImageDecoders {
    /// A decoder that produces an empty image and keeps the original data in ``ImageContainer/data``.
    ///
    /// Use it to pass data through the pipeline without decoding, e.g. for formats the app renders itself.
    public struct Empty: ImageDecoding, Sendable {
        /// The type recorded in the container, as given (the pipeline fills in the sniffed type when it is `nil`).
        public let assetType: AssetType?
        /// Whether to produce previews (also empty) for partial data.
        public let isProgressive: Bool

        /// Creates the decoder.
        public init(assetType: AssetType? = nil, isProgressive: Bool = false) {
            self.assetType = assetType
            self.isProgressive = isProgressive
        }

        /// `false`: there is nothing to decode.
        public var isAsynchronous: Bool { false }

        public func decode(_ data: Data) throws -> ImageContainer {
            ImageContainer(image: PlatformImage(), type: assetType, data: data)
        }

        public func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
            guard isProgressive else { return nil }
            return ImageContainer(image: PlatformImage(), type: assetType, isPreview: true, data: data)
        }
    }
}
