/// A codec decoder with a ``Configuration``: the shape every codec plugin shares (`ImageDecoders.PNG`,
/// `.JPEG`, `.WebP`, `.SVG`, `.GIF`).
///
/// A conforming decoder implements ``init(configuration:)`` and ``init(context:configuration:)`` (which
/// returns `nil` for data that isn't its format); the extension supplies ``init(context:)`` (the default
/// configuration) and ``register(in:configuration:)``:
///
/// ```swift
/// ImageDecoders.PNG.register(in: .shared)
/// // or: ImageDecoderRegistry.shared.register(ImageDecoders.PNG.init(context:))
/// ```
public protocol ConfigurableImageDecoding: ImageDecoding {
    /// The decoder's limits and options.
    associatedtype Configuration: ImageDecoderConfiguration

    /// The limits and options of this decoder.
    var configuration: Configuration { get }

    /// Creates a decoder that decodes at full size.
    init(configuration: Configuration)

    /// Returns a decoder with the given configuration if the context's data is the decoder's format, or `nil`.
    /// The decoder honours the request's ``ImageRequest/thumbnail`` and scale where the format allows.
    init?(context: ImageDecodingContext, configuration: Configuration)
}

extension ConfigurableImageDecoding {
    /// Returns a decoder with the default configuration if the context's data is the decoder's format, or
    /// `nil` (see ``init(context:configuration:)``).
    public init?(context: ImageDecodingContext) {
        self.init(context: context, configuration: Configuration())
    }

    /// Registers a factory for this decoder in `registry` and returns the registration.
    @discardableResult
    public static func register(
        in registry: ImageDecoderRegistry, configuration: Configuration = .init()
    ) -> ImageDecoderRegistry.Registration {
        registry.register { context in Self(context: context, configuration: configuration) }
    }
}

/// The configuration of a ``ConfigurableImageDecoding`` decoder: it has defaults and a pixel limit.
public protocol ImageDecoderConfiguration: Sendable, Hashable {
    /// Creates the default configuration.
    init()

    /// The largest image, in pixels (width × height), the decoder accepts, checked from the header before any
    /// pixel memory is allocated.
    var maximumPixelCount: Int { get }
}

extension ImageDecoderConfiguration {
    /// The default of every codec's ``maximumPixelCount``: 100 megapixels (400 MB decoded).
    public static var defaultMaximumPixelCount: Int { 100_000_000 }

    /// Throws `Failure.imageTooLarge` unless both sides are positive and `width × height` is at most
    /// ``maximumPixelCount`` (an overflowing product is too large). Call it with the header's size, before
    /// allocating pixels.
    public func checkPixelCount<Failure: ImageDecodingSizeError>(
        width: Int, height: Int, throwing _: Failure.Type
    ) throws(Failure) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= maximumPixelCount else {
            throw Failure.imageTooLarge(width: width, height: height, maximumPixelCount: maximumPixelCount)
        }
    }
}

/// A codec's error type that can say "the image is larger than the limit"; an enum case
/// `imageTooLarge(width:height:maximumPixelCount:)` satisfies it.
public protocol ImageDecodingSizeError: Error {
    /// The image is `width × height` pixels, more than `maximumPixelCount`.
    static func imageTooLarge(width: Int, height: Int, maximumPixelCount: Int) -> Self
}
