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

/// The configuration of a decoder of animations (`ImageDecoders.GIF`, `.AVIF` sequences): besides the pixel limit of
/// one image, limits on the number of frames and on the pixels that one pass over the frames produces — a file of
/// many tiny frames over a huge canvas is cheap to store but returns a whole canvas per frame.
public protocol AnimatedImageDecoderConfiguration: ImageDecoderConfiguration {
    /// The most frames an animation may have.
    var maximumFrameCount: Int { get }

    /// The most pixels one pass over an animation may produce and decode.
    var maximumTotalPixelCount: Int { get }
}

extension AnimatedImageDecoderConfiguration {
    /// The default ``maximumFrameCount``: 10 000.
    public static var defaultMaximumFrameCount: Int { 10_000 }

    /// The default ``maximumTotalPixelCount``: one billion (a 300-frame 1000×1000 GIF is 600 million).
    public static var defaultMaximumTotalPixelCount: Int { 1_000_000_000 }

    /// Throws `Failure.tooManyFrames` if `frameCount` is more than ``maximumFrameCount``.
    public func checkFrameCount<Failure: ImageAnimationLimitError>(
        _ frameCount: Int, throwing _: Failure.Type
    ) throws(Failure) {
        guard frameCount <= maximumFrameCount else {
            throw Failure.tooManyFrames(maximumFrameCount: maximumFrameCount)
        }
    }

    /// Returns `total + pixels`, or throws `Failure.animationTooLarge` if `pixels` is negative (a caller's sign
    /// of an overflowing count) or the sum overflows or is more than ``maximumTotalPixelCount``. Call it once per
    /// frame, from the headers, before the frame is decoded.
    public func addingPixels<Failure: ImageAnimationLimitError>(
        _ pixels: Int, to total: Int, throwing _: Failure.Type
    ) throws(Failure) -> Int {
        let (sum, overflow) = total.addingReportingOverflow(pixels)
        guard pixels >= 0, !overflow, sum <= maximumTotalPixelCount else {
            throw Failure.animationTooLarge(maximumTotalPixelCount: maximumTotalPixelCount)
        }
        return sum
    }
}

/// A codec's error type that can say an animation is over the limits of an ``AnimatedImageDecoderConfiguration``;
/// enum cases `tooManyFrames(maximumFrameCount:)` and `animationTooLarge(maximumTotalPixelCount:)` satisfy it.
public protocol ImageAnimationLimitError: ImageDecodingSizeError {
    /// The animation has more frames than `maximumFrameCount`.
    static func tooManyFrames(maximumFrameCount: Int) -> Self

    /// A pass over the animation would produce more than `maximumTotalPixelCount` pixels.
    static func animationTooLarge(maximumTotalPixelCount: Int) -> Self
}
