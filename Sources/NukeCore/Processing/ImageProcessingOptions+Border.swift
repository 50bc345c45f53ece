public import Foundation

extension ImageProcessingOptions {
    /// A border drawn along the inside edge of the shape made by ``ImageProcessors/Circle`` or
    /// ``ImageProcessors/RoundedCorners``.
    ///
    /// The border covers the outermost `width` of the shape (it is not centred on the edge), anti-aliased
    /// like the edge itself. Points become pixels with the image's ``PlatformImage/scale`` when the border
    /// is drawn.
    public struct Border: Hashable, Sendable, CustomStringConvertible {
        /// The colour, premultiplied like every pixel of a ``PlatformImage`` (an opaque colour is
        /// unaffected by premultiplication).
        public let color: PlatformImage.RGBA
        /// The width in ``unit``s.
        public let width: CGFloat
        /// The unit of ``width``.
        public let unit: ImageProcessingOptions.Unit

        /// Creates a border.
        ///
        /// - Parameters:
        ///   - color: The premultiplied colour of the border.
        ///   - width: The width of the border; `1` by default. A negative or non-finite width makes
        ///     processing fail with ``ImageProcessingError/invalidParameter(name:value:)``.
        ///   - unit: The unit of `width`; points by default.
        public init(color: PlatformImage.RGBA, width: CGFloat = 1, unit: ImageProcessingOptions.Unit = .points) {
            self.color = color
            self.width = width
            self.unit = unit
        }

        /// The width in pixels for an image of the given scale; throws for a negative or non-finite width.
        func pixelWidth(scale: Double) throws -> Double {
            let pixels = Double(width) * (unit == .points ? scale : 1)
            guard pixels.isFinite, pixels >= 0 else {
                throw ImageProcessingError.invalidParameter(name: "border width", value: pixels)
            }
            return pixels
        }

        /// `Border(color: #RRGGBBAA, width: 1.0 points)`; stable, it is part of processor identifiers.
        public var description: String {
            let hex = [color.r, color.g, color.b, color.a].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }
            return "Border(color: #\(hex.joined()), width: \(Double(width)) \(unit))"
        }
    }
}
