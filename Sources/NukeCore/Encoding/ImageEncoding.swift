public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Encodes an image into data, e.g. to store processed images in the disk cache or write files.
///
/// Encoders run off the caller's thread, on the pipeline's encoding queue.
public protocol ImageEncoding: Sendable {
    /// Returns the encoded image, or `nil` if it can't be encoded.
    func encode(_ image: PlatformImage) -> Data?

    /// Returns the encoded container; the default encodes the image.
    func encode(_ container: ImageContainer, context: ImageEncodingContext) -> Data?
}

extension ImageEncoding {
    public func encode(_ container: ImageContainer, context: ImageEncodingContext) -> Data? {
        encode(container.image)
    }
}

/// What an encoder may want to know.
public struct ImageEncodingContext: Sendable {
    /// The request whose image is encoded.
    public var request: ImageRequest
    /// The image.
    public var image: PlatformImage
    /// The response the image came from.
    public var urlResponse: URLResponse?

    /// Creates a context.
    public init(request: ImageRequest, image: PlatformImage, urlResponse: URLResponse? = nil) {
        self.request = request
        self.image = image
        self.urlResponse = urlResponse
    }
}

/// An encoder that also writes animations: every frame of an ``ImageAnimation`` into one animated file (the WebP and
/// AVIF encoders), so code that transcodes an animated source — a tool, an image service — keeps it animated
/// whatever the codec, and falls back to ``ImageEncoding/encode(_:)`` of one frame for an encoder without it.
public protocol ImageAnimationEncoding: ImageEncoding {
    /// Encodes every frame of `animation`, in order, with its duration and the animation's loop count where the
    /// format stores them.
    ///
    /// Frames are decoded one at a time and passed through `transform` (for example a request's processors), which
    /// must give every frame the same size; a conforming encoder keeps no frame longer than it needs.
    ///
    /// - Returns: The encoded data, or `nil` if the animation is empty, a frame has another size than the first, or
    ///   the codec fails.
    /// - Throws: What decoding a frame or `transform` throws, which stops the encoding.
    func encode(_ animation: any ImageAnimation, transform: (PlatformImage) throws -> PlatformImage) throws -> Data?
}

/// Namespace for encoders; plugins add theirs (`ImageEncoders.PNG`, …).
public enum ImageEncoders {}

/// The encoder of a configuration without codecs: encodes nothing, so nothing is stored encoded.
struct NoImageEncoder: ImageEncoding {
    func encode(_ image: PlatformImage) -> Data? { nil }
}
