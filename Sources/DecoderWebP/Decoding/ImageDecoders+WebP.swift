public import Foundation
public import NukeCore

extension ImageDecoders {
    /// Decodes WebP with libwebp into a premultiplied RGBA `PlatformImage` (libwebp premultiplies).
    ///
    /// - Lossy (VP8), lossless (VP8L) and alpha (ALPH or lossless alpha).
    /// - Animated WebP: the container holds the first frame as its image and the original data in
    ///   `ImageContainer.data`; read the frame count, loop count and frame durations, or decode any frame,
    ///   with ``Animation``.
    /// - Thumbnails: a still image is decoded directly at the `ImageRequest.thumbnail` size with libwebp's
    ///   scaler (an area-averaging filter), which is faster and uses less memory than a full decode.
    ///   Animated images are decoded at full size.
    /// - Progressive previews: ``decodePartiallyDownloadedData(_:)`` decodes the rows that have arrived with
    ///   libwebp's incremental decoder.
    ///
    /// ## Safety
    /// The image (or animation canvas) size is read from the header and checked against
    /// ``Configuration/maximumPixelCount`` before any pixel memory is allocated. Corrupt, truncated or
    /// hostile data throws an ``Error`` carrying libwebp's status.
    ///
    /// ## Registration
    /// ```swift
    /// ImageDecoders.WebP.register(in: .shared)
    /// // or: ImageDecoderRegistry.shared.register(ImageDecoders.WebP.init(context:))
    /// ```
    ///
    /// The decoder is `Sendable`; ``decode(_:)`` may be called from any thread. Previews keep libwebp's
    /// incremental decoder for the image being loaded, so use one instance per image when decoding
    /// progressively (the pipeline does).
    public struct WebP: ConfigurableImageDecoding, Sendable {
        /// The limits of the decoder.
        public let configuration: Configuration

        /// The size the request wants (its thumbnail and scale).
        let target: ImageDecodingTarget
        /// libwebp's incremental decoder for previews, created on the first preview.
        let incremental = IncrementalState()

        /// Creates a decoder that decodes at full size.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
            self.target = ImageDecodingTarget()
        }

        /// Returns a decoder with the given configuration if the context's data is WebP (by its magic bytes,
        /// never by the URL), or `nil`. The decoder honours the request's `ImageRequest.thumbnail` and scale.
        public init?(context: ImageDecodingContext, configuration: Configuration) {
            guard context.type == .webp else { return nil }
            self.configuration = configuration
            self.target = ImageDecodingTarget(request: context.request)
        }

        /// Decodes the complete data: a still image, or the first frame of an animation (keeping `data`). The
        /// `ICCP` chunk's profile becomes `PlatformImage.colorProfile`; the pixels stay in its colour space.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData` and `truncatedData` (with libwebp's status),
        ///   `imageTooLarge` or `outOfMemory`.
        public func decode(_ data: Data) throws -> ImageContainer {
            incremental.stop()  // The final image replaces the previews: release the incremental decoder.
            guard !data.isEmpty else { throw Error.emptyData }
            let features = try data.withUnsafeBytes { try WebPFeatures(bytes: $0) }
            try features.checkSize(configuration)
            let profile = data.withUnsafeBytes { WebPColorProfile.iccProfile(in: $0) }.map(ColorProfile.icc)
            if features.hasAnimation {
                let animation = try Animation(data: data, configuration: configuration)
                var image = try animation.frame(at: 0)
                image.colorProfile = profile
                return ImageContainer(image: image, type: .webp, data: data)
            }
            let size = target.pixelSize(width: features.width, height: features.height)
            var image = try data.withUnsafeBytes { bytes in
                try WebPStillDecoding.decode(bytes, width: size.width, height: size.height, features: features)
            }
            image.colorProfile = profile
            return ImageContainer(image: image, type: .webp)
        }
    }
}
