public import Foundation

extension ImageProcessingOptions {
    /// A border drawn along the inside edge of the shape made by ``ImageProcessors/Circle`` or
    /// ``ImageProcessors/RoundedCorners``.
    ///
    /// The border covers the outermost ``width`` pixels of the shape (it is not centred on the edge),
    /// anti-aliased like the edge itself. As in Nuke, the width is converted to pixels when the border is
    /// created; a point is one pixel on Linux (see ``ImageProcessingOptions/Unit/points``), so borders made
    /// with the same number in points and in pixels are equal and share cache entries.
    ///
    /// ```swift
    /// let avatar = ImageRequest(url: url, processors: [.circle(border: .init(color: .white, width: 2))])
    /// ```
    public struct Border: Hashable, Sendable, CustomStringConvertible {
        /// The colour of the border.
        public let color: PlatformColor
        /// The width in pixels. A negative or non-finite width makes processing fail with
        /// ``ImageProcessingError/invalidParameter(name:value:)``.
        public let width: CGFloat

        /// Creates a border.
        ///
        /// - Parameters:
        ///   - color: The colour of the border.
        ///   - width: The width of the border; `1` by default.
        ///   - unit: The unit of `width`; points by default (one point is one pixel on Linux).
        public init(color: PlatformColor, width: CGFloat = 1, unit: ImageProcessingOptions.Unit = .points) {
            self.color = color
            self.width = unit.pixels(width)
        }

        /// Creates a border from a premultiplied pixel value, as read from a ``PlatformImage``.
        ///
        /// The colour is un-premultiplied into a ``PlatformColor``; drawing it gives back the same bytes.
        ///
        /// - Parameters:
        ///   - color: The premultiplied colour of the border.
        ///   - width: The width of the border; `1` by default.
        ///   - unit: The unit of `width`; points by default (one point is one pixel on Linux).
        public init(color: PlatformImage.RGBA, width: CGFloat = 1, unit: ImageProcessingOptions.Unit = .points) {
            let alpha = CGFloat(color.a)
            func component(_ value: UInt8) -> CGFloat { alpha == 0 ? 0 : min(1, CGFloat(value) / alpha) }
            let straight = PlatformColor(
                red: component(color.r), green: component(color.g), blue: component(color.b), alpha: alpha / 255)
            self.init(color: straight, width: width, unit: unit)
        }

        /// The width in pixels; throws for a negative or non-finite width.
        func validatedWidth() throws -> Double {
            let pixels = Double(width)
            guard pixels.isFinite, pixels >= 0 else {
                throw ImageProcessingError.invalidParameter(name: "border width", value: pixels)
            }
            return pixels
        }

        /// `Border(color: #FF0000, width: 2.0 pixels)`, Nuke's format (the colour as in
        /// ``PlatformColor/description``). Stable: it is part of processor identifiers.
        public var description: String {
            "Border(color: \(color), width: \(Double(width)) pixels)"
        }
    }
}
