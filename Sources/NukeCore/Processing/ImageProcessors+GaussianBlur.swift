extension ImageProcessors {
    /// Blurs an image with a fast approximation of a Gaussian blur.
    ///
    /// `radius` is the standard deviation of the Gaussian in pixels, as in Nuke. The blur is three box
    /// blurs per axis (the SVG `feGaussianBlur` method), whose cost per pixel does not depend on the
    /// radius; edges are extended rather than faded, and it works on premultiplied alpha, so transparent
    /// areas don't darken the colours around them. Radii above 100 pixels are treated as 100. A radius
    /// of zero returns the image unchanged; a negative radius is clamped to zero when the processor is
    /// created, as in Nuke, so it equals `GaussianBlur(radius: 0)` and shares its identifier. Large images are split across all cores.
    ///
    /// Processing throws ``ImageProcessingError/emptyImage`` for an image without pixels.
    public struct GaussianBlur: ImageProcessing, Hashable, CustomStringConvertible {
        private let radius: Int

        /// Creates a blur with the given radius (the standard deviation, in pixels); `8` by default. A
        /// negative radius is treated as `0` (no blur).
        public init(radius: Int = 8) {
            self.radius = max(0, radius)
        }

        /// Returns the blurred image, or `nil` for an empty image.
        public func process(_ image: PlatformImage) -> PlatformImage? {
            try? blurred(image)
        }

        /// Blurs the container's image; throws ``ImageProcessingError/emptyImage`` for an empty one.
        public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
            try container.map(blurred)
        }

        func blurred(_ image: PlatformImage) throws -> PlatformImage {
            guard !image.isEmpty else { throw ImageProcessingError.emptyImage }
            guard radius > 0 else { return image }
            let blur = BoxBlur(sigma: Double(radius))
            let (width, height) = (image.width, image.height)
            let bytesPerRow = image.bytesPerRow
            return PlatformImage(
                unchecked: width, height: height, scale: image.scale, isOpaque: image.isOpaque
            ) { buffer in
                image.withUnsafeBytes { source in
                    guard let src = source.baseAddress, let dst = buffer.baseAddress else { return }
                    blur.apply(
                        source: src.assumingMemoryBound(to: UInt8.self), bytesPerRow: bytesPerRow,
                        width: width, height: height, into: dst.assumingMemoryBound(to: UInt8.self))
                }
            }
        }

        /// Nuke's identifier, `com.github.kean/nuke/gaussian_blur?radius=8`. Stable: it is part of disk cache
        /// keys.
        public var identifier: String {
            "com.github.kean/nuke/gaussian_blur?radius=\(radius)"
        }

        /// Nuke's description, `GaussianBlur(radius: 8)`.
        public var description: String {
            "GaussianBlur(radius: \(radius))"
        }
    }
}
