public import Foundation

extension ImageRequest {
    /// Asks the decoder to produce a smaller image directly, which is much faster and uses far less memory
    /// than decoding the full image and resizing it.
    ///
    /// Codecs that can scale while decoding (JPEG, WebP, SVG) use it directly; the others decode the full
    /// image and the pipeline resizes it (``makeThumbnail(from:scale:)``). The options are part of the
    /// decode key and their ``identifier`` of the disk cache key, so requests for different thumbnails of
    /// the same URL share the download but not the decode.
    ///
    /// Sizes are converted to pixels when the options are created, as in Nuke; a point is one pixel on
    /// Linux (see ``ImageProcessingOptions/Unit/points``), so options made with the same number in points
    /// and in pixels are equal.
    ///
    /// The four Image I/O flags (``createThumbnailFromImageIfAbsent``, ``createThumbnailFromImageAlways``,
    /// ``createThumbnailWithTransform``, ``shouldCacheImmediately``) exist so that code written against Nuke
    /// compiles; they have no effect on Linux. Like in Nuke, they are part of the options' identity and
    /// ``identifier``, so changing one gives a different cache key.
    public struct ThumbnailOptions: Hashable, Sendable, CustomStringConvertible {
        enum Target: Hashable, Sendable {
            /// The longer side, in pixels.
            case maxPixelSize(Float)
            /// The target size, in pixels.
            case size(width: Float, height: Float, ImageProcessingOptions.ContentMode)
        }

        let target: Target

        /// Whether to make a thumbnail from the full image when the file has no embedded one; `true` by
        /// default, as in Nuke.
        ///
        /// Has no effect on Linux: the decoders never use embedded thumbnails, they always scale the full
        /// image. Part of the ``identifier``, as in Nuke.
        public var createThumbnailFromImageIfAbsent = true

        /// Whether to make the thumbnail from the full image even when the file has an embedded one; `true` by
        /// default, as in Nuke.
        ///
        /// Has no effect on Linux: the thumbnail is always made from the full image. Part of the
        /// ``identifier``, as in Nuke.
        public var createThumbnailFromImageAlways = true

        /// Whether to rotate and scale the thumbnail by the image's orientation and pixel aspect ratio; `true`
        /// by default, as in Nuke.
        ///
        /// Has no effect on Linux: decoders that read an orientation (JPEG's EXIF) always apply it, and sizes
        /// are measured in the displayed orientation. Part of the ``identifier``, as in Nuke.
        public var createThumbnailWithTransform = true

        /// Whether to decode the pixels when the thumbnail is created rather than when first drawn; `true` by
        /// default, as in Nuke.
        ///
        /// Has no effect on Linux: a ``PlatformImage`` always holds decoded pixels. Part of the
        /// ``identifier``, as in Nuke.
        public var shouldCacheImmediately = true

        /// Fits the image in a square of `maxPixelSize` pixels, keeping its aspect ratio.
        public init(maxPixelSize: CGFloat) {
            self.target = .maxPixelSize(Float(maxPixelSize))
        }

        /// Fits the image in a square of `maxPixelSize` pixels, keeping its aspect ratio: Nuke 13.2's spelling,
        /// which takes a `Float`. Equal to ``init(maxPixelSize:)-(CGFloat)`` with the same number; a literal
        /// picks the `CGFloat` initializer.
        @_disfavoredOverload
        public init(maxPixelSize: Float) {
            self.target = .maxPixelSize(maxPixelSize)
        }

        /// Scales the image to `size` (in `unit`) with the given content mode, keeping its aspect ratio.
        ///
        /// - Parameters:
        ///   - size: The target size.
        ///   - unit: The unit of `size`; points by default (one point is one pixel on Linux).
        ///   - contentMode: `.aspectFill` (the default) covers the target, `.aspectFit` fits inside it.
        public init(
            size: CGSize,
            unit: ImageProcessingOptions.Unit = .points,
            contentMode: ImageProcessingOptions.ContentMode = .aspectFill
        ) {
            let pixels = CGSize(width: unit.pixels(size.width), height: unit.pixels(size.height))
            self.target = .size(width: Float(pixels.width), height: Float(pixels.height), contentMode)
        }

        /// How the image is fitted into the target: the `contentMode` given to
        /// ``init(size:unit:contentMode:)``, or `.aspectFit` for ``init(maxPixelSize:)-(CGFloat)``, which fits the image
        /// in a square.
        public var contentMode: ImageProcessingOptions.ContentMode {
            switch target {
            case .maxPixelSize: .aspectFit
            case let .size(_, _, contentMode): contentMode
            }
        }

        /// A stable string that describes the options, used in disk cache keys; Nuke's format, for example
        /// `com.github/kean/nuke/thumbnail?maxPixelSize=400.0,options=truetruetruetrue` or
        /// `com.github/kean/nuke/thumbnail?width=320.0,height=240.0,contentMode=.aspectFill,options=truetruetruetrue`
        /// (sizes in pixels; the four flags in declaration order).
        public var identifier: String {
            let size =
                switch target {
                case let .maxPixelSize(size):
                    "maxPixelSize=\(size)"
                case let .size(width, height, contentMode):
                    "width=\(Double(width)),height=\(Double(height)),contentMode=\(contentMode)"
                }
            let flags = [
                createThumbnailFromImageIfAbsent, createThumbnailFromImageAlways, createThumbnailWithTransform,
                shouldCacheImmediately,
            ]
            return "com.github/kean/nuke/thumbnail?\(size),options=" + flags.map(String.init).joined()
        }

        /// The ``identifier``.
        public var description: String { identifier }

        /// The pixel size of the thumbnail of a `width`×`height` pixel image, keeping the aspect ratio and
        /// never upscaling or producing a side smaller than one pixel.
        ///
        /// - Parameters:
        ///   - width: The image's width in pixels.
        ///   - height: The image's height in pixels.
        ///   - scale: Ignored, kept so existing callers compile: sizes are converted to pixels when the options
        ///     are created (see ``ImageProcessingOptions/Unit/points``).
        public func targetPixelSize(width: Int, height: Int, scale: Float = 1) -> (width: Int, height: Int) {
            guard width > 0, height > 0 else { return (width, height) }
            let factor = scaleFactor(width: Double(width), height: Double(height))
            guard factor.isFinite, factor < 1 else { return (width, height) }
            let newWidth = max(1, Int((Double(width) * factor).rounded()))
            let newHeight = max(1, Int((Double(height) * factor).rounded()))
            return (min(newWidth, width), min(newHeight, height))
        }

        /// The factor that takes a `width`×`height` image to the target (greater than 1 to enlarge it).
        func scaleFactor(width: Double, height: Double) -> Double {
            switch target {
            case let .maxPixelSize(size):
                return Double(size) / max(width, height)
            case let .size(targetWidth, targetHeight, contentMode):
                let scaleX = Double(targetWidth) / width
                let scaleY = Double(targetHeight) / height
                return contentMode == .aspectFill ? max(scaleX, scaleY) : min(scaleX, scaleY)
            }
        }
    }
}
