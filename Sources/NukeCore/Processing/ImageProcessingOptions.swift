import Foundation

/// Options shared by processors and thumbnails.
public enum ImageProcessingOptions: Sendable {
    /// The unit of a target size, radius or border width.
    ///
    /// Sizes are converted to pixels when a processor or thumbnail option is created, as in Nuke, so the
    /// same number in points and in pixels gives equal processors with equal identifiers (and shared cache
    /// entries).
    @frozen
    public enum Unit: String, Hashable, Sendable, CustomStringConvertible {
        /// Points. Nuke multiplies points by the screen scale; Linux has no screen, so one point is one pixel
        /// (as on macOS, where Nuke's screen scale is always 1). The request's
        /// ``ImageRequest/scale`` only sets the ``PlatformImage/scale`` of the decoded image.
        case points
        /// Pixels.
        case pixels

        /// `"points"` or `"pixels"`, as in Nuke.
        public var description: String { rawValue }

        /// `value` in this unit, converted to pixels (a point is one pixel on Linux).
        func pixels(_ value: CGFloat) -> CGFloat {
            switch self {
            case .points: value * Self.screenScale
            case .pixels: value
            }
        }

        /// The number of pixels in a point: Nuke's screen scale, which is 1 without a screen.
        static let screenScale: CGFloat = 1
    }

    /// How an image is fitted into a target size.
    @frozen
    public enum ContentMode: String, Hashable, Sendable, CustomStringConvertible {
        /// Scale to fill the target size; one side may be larger than the target.
        case aspectFill
        /// Scale to fit within the target size; one side may be smaller than the target.
        case aspectFit

        /// `".aspectFill"` or `".aspectFit"`, Nuke's format; part of the identifiers of resize processors
        /// and thumbnail options, so stable.
        public var description: String { "." + rawValue }
    }
}
