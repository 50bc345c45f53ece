public import Foundation

/// Transforms a decoded image: resize, crop, blur, anything.
///
/// Implement ``process(_:)``; override ``process(_:context:)`` to read or change the container's metadata or
/// to throw a specific error. Processors run off the caller's thread, on the pipeline's processing queue.
///
/// ## Identity
/// ``identifier`` names what the processor does, including its parameters, and must be stable across
/// launches: it is part of the disk cache key. ``hashableIdentifier`` is the fast in-memory version used for
/// the memory cache and to find shared work; by default it is `identifier`.
public protocol ImageProcessing: Sendable {
    /// Returns the processed image, or `nil` if processing failed.
    func process(_ image: PlatformImage) -> PlatformImage?

    /// Returns the processed container. The default calls ``process(_:)`` on the image and throws
    /// ``ImageProcessingError/processingFailed`` when it returns `nil`.
    func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer

    /// A stable string identifying the processor and its parameters (used in disk cache keys).
    var identifier: String { get }

    /// A hashable identity used in memory cache keys and to coalesce work; defaults to ``identifier``.
    var hashableIdentifier: AnyHashable { get }
}

extension ImageProcessing {
    public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
        guard let image = process(container.image) else {
            throw ImageProcessingError.processingFailed
        }
        var output = container
        output.image = image
        return output
    }

    public var hashableIdentifier: AnyHashable { identifier }
}

extension ImageProcessing where Self: Hashable {
    /// A `Hashable` processor is its own identity, which is faster to hash than a string.
    public var hashableIdentifier: AnyHashable { self }
}

/// What a processor may want to know about the image it processes.
public struct ImageProcessingContext: Sendable {
    /// The request being served.
    public var request: ImageRequest
    /// The response so far (the unprocessed or partially processed image).
    public var response: ImageResponse
    /// `false` while processing a preview of a partially downloaded image.
    public var isCompleted: Bool

    /// Creates a context.
    public init(request: ImageRequest, response: ImageResponse, isCompleted: Bool) {
        self.request = request
        self.response = response
        self.isCompleted = isCompleted
    }
}

/// Why a processor produced no image.
///
/// The pipeline wraps it in ``ImagePipeline/Error/processingFailed(processor:context:error:)``.
public enum ImageProcessingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The processor returned `nil`.
    case processingFailed
    /// The input image has no pixels (a width or height of zero).
    case emptyImage
    /// A target size (in pixels, after converting points) is zero, negative or not finite.
    case invalidTargetSize(width: Double, height: Double)
    /// The output would have more than ``PlatformImage/maximumPixelCount`` pixels.
    case outputTooLarge(width: Double, height: Double)
    /// The crop rectangle (in pixels) does not overlap the image.
    case cropRectOutsideImage(CGRect)
    /// A parameter (a radius, a border width) is negative or not finite.
    case invalidParameter(name: String, value: Double)
    /// The processing failed for a reason the processor does not name; Nuke's only case, for processors
    /// written against Nuke. The built-in processors throw the more specific cases above.
    case unknown

    public var description: String {
        switch self {
        case .processingFailed: "The processor returned no image"
        case .emptyImage: "The image has no pixels"
        case let .invalidTargetSize(width, height):
            "Invalid target size \(width)×\(height) pixels; both sides must be positive and finite"
        case let .outputTooLarge(width, height):
            "The output of \(width)×\(height) pixels exceeds \(PlatformImage.maximumPixelCount) pixels"
        case let .cropRectOutsideImage(rect):
            "The crop rectangle \(rect) does not overlap the image"
        case let .invalidParameter(name, value):
            "Invalid \(name) \(value); it must be a non-negative finite number"
        case .unknown: "Unknown"
        }
    }
}

/// Namespace for the built-in processors.
public enum ImageProcessors {}

extension ImageProcessing where Self == ImageProcessors.Anonymous {
    /// A processor that runs `closure`; `id` identifies it in cache keys.
    public static func process(
        id: String,
        _ closure: @escaping @Sendable (PlatformImage) -> PlatformImage?
    ) -> ImageProcessors.Anonymous {
        ImageProcessors.Anonymous(id: id, closure)
    }
}
