extension ImageProcessors {
    /// Converts an image to shades of grey, keeping its alpha.
    ///
    /// Uses the Rec. 601 luma weights (0.299 R + 0.587 G + 0.114 B, as most image tools do) on the
    /// premultiplied values, which is exact for premultiplied alpha. Processing throws
    /// ``ImageProcessingError/emptyImage`` for an image without pixels.
    public struct Grayscale: ImageProcessing, Hashable, CustomStringConvertible {
        /// Creates the processor.
        public init() {}

        /// Returns the grey image, or `nil` for an empty image.
        public func process(_ image: PlatformImage) -> PlatformImage? {
            try? grayscaled(image)
        }

        /// Converts the container's image; throws ``ImageProcessingError/emptyImage`` for an empty one.
        public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
            try container.map(grayscaled)
        }

        func grayscaled(_ image: PlatformImage) throws -> PlatformImage {
            guard !image.isEmpty else { throw ImageProcessingError.emptyImage }
            var result = image.packed()
            let count = image.width * image.height
            result.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                let pointer = UncheckedSendable(base.assumingMemoryBound(to: UInt8.self))
                Parallel.forEachChunk(count: count, work: count) { range in
                    Kernels.grayscale(pointer.value + range.lowerBound * 4, count: range.count)
                }
            }
            return result
        }

        /// `"com.github.kean/nuke/grayscale"`.
        public var identifier: String { "com.github.kean/nuke/grayscale" }

        public var description: String { "Grayscale()" }
    }
}
