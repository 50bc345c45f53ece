public import Foundation

extension ImageProcessors {
    /// Rounds the corners of an image, with anti-aliased edges and an optional border.
    ///
    /// The radius is in points by default and, as in Nuke, converted to pixels when the processor is created
    /// (a point is one pixel on Linux, see ``ImageProcessingOptions/Unit/points``); it is limited to half the
    /// shorter side. Pixels outside the rounded shape become transparent; the rest of
    /// the image is unchanged. For the corners to look right, the image should be displayed at its pixel
    /// size (resize it first, see ``ImageProcessors/Resize``).
    ///
    /// Processing throws ``ImageProcessingError/emptyImage`` for an image without pixels and
    /// ``ImageProcessingError/invalidParameter(name:value:)`` for a negative or non-finite radius or
    /// border width.
    public struct RoundedCorners: ImageProcessing, Hashable, CustomStringConvertible {
        /// The radius in pixels.
        private let radius: CGFloat
        private let border: ImageProcessingOptions.Border?

        /// Creates a processor that rounds corners to `radius`.
        ///
        /// - Parameters:
        ///   - radius: The radius of the corners.
        ///   - unit: The unit of `radius`; points by default (one point is one pixel on Linux).
        ///   - border: A border drawn along the inside of the rounded edge; none by default.
        public init(
            radius: CGFloat, unit: ImageProcessingOptions.Unit = .points, border: ImageProcessingOptions.Border? = nil
        ) {
            self.radius = unit.pixels(radius)
            self.border = border
        }

        /// Returns the image with rounded corners, or `nil` when it is empty or a parameter is invalid.
        public func process(_ image: PlatformImage) -> PlatformImage? {
            try? rounded(image)
        }

        /// Rounds the corners of the container's image; throws an ``ImageProcessingError`` naming the problem.
        public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
            try container.map(rounded)
        }

        func rounded(_ image: PlatformImage) throws -> PlatformImage {
            guard !image.isEmpty else { throw ImageProcessingError.emptyImage }
            let pixels = Double(radius)
            guard pixels.isFinite, pixels >= 0 else {
                throw ImageProcessingError.invalidParameter(name: "corner radius", value: pixels)
            }
            return try image.masked(radius: pixels, border: border)
        }

        /// Nuke's identifier, `com.github.kean/nuke/rounded_corners?radius=16.0` with the radius in pixels,
        /// followed by `,border=` and the border's description when there is one. Stable: it is part of disk
        /// cache keys.
        public var identifier: String {
            let suffix = border.map { ",border=\($0)" } ?? ""
            return "com.github.kean/nuke/rounded_corners?radius=\(Double(radius))" + suffix
        }

        /// Nuke's description, for example `RoundedCorners(radius: 16.0 pixels, border: nil)`.
        public var description: String {
            "RoundedCorners(radius: \(Double(radius)) pixels, border: \(border?.description ?? "nil"))"
        }
    }

    /// Crops an image to a centred square and cuts it to a circle, with an anti-aliased edge and an
    /// optional border.
    ///
    /// The square's side is the image's shorter side; pixels outside the circle become transparent.
    /// Processing throws ``ImageProcessingError/emptyImage`` for an image without pixels and
    /// ``ImageProcessingError/invalidParameter(name:value:)`` for a negative or non-finite border width.
    public struct Circle: ImageProcessing, Hashable, CustomStringConvertible {
        private let border: ImageProcessingOptions.Border?

        /// Creates a processor that cuts images to a circle, with an optional border; none by default.
        public init(border: ImageProcessingOptions.Border? = nil) {
            self.border = border
        }

        /// Returns the circular image, or `nil` when it is empty or the border is invalid.
        public func process(_ image: PlatformImage) -> PlatformImage? {
            try? circled(image)
        }

        /// Cuts the container's image to a circle; throws an ``ImageProcessingError`` naming the problem.
        public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
            try container.map(circled)
        }

        func circled(_ image: PlatformImage) throws -> PlatformImage {
            guard !image.isEmpty else { throw ImageProcessingError.emptyImage }
            let side = min(image.width, image.height)
            let square = image.cropped(
                x: (image.width - side) / 2, y: (image.height - side) / 2, width: side, height: side)
            return try square.masked(radius: Double(side) / 2, border: border)
        }

        /// Nuke's identifier, `com.github.kean/nuke/circle`, followed by `?border=` and the border's
        /// description when there is one. Stable: it is part of disk cache keys.
        public var identifier: String {
            "com.github.kean/nuke/circle" + (border.map { "?border=\($0)" } ?? "")
        }

        /// Nuke's description, for example `Circle(border: nil)`.
        public var description: String {
            "Circle(border: \(border?.description ?? "nil"))"
        }
    }
}

extension PlatformImage {
    /// The image cut to a rounded rectangle of `radius` pixels, with an optional border.
    func masked(radius: Double, border: ImageProcessingOptions.Border?) throws -> PlatformImage {
        let borderWidth = try border?.validatedWidth() ?? 0
        guard radius > 0 || borderWidth > 0 else { return self }
        let mask = ShapeMask(
            width: width, height: height, radius: radius, borderWidth: borderWidth,
            borderColor: border?.color.premultipliedRGBA ?? RGBA(r: 0, g: 0, b: 0, a: 0))
        var result = packed()
        result.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            mask.apply(to: base.assumingMemoryBound(to: UInt8.self))
        }
        result.isOpaque = isOpaque && radius == 0 && (border?.color.alpha ?? 1) == 1
        return result
    }
}
