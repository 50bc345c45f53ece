public import Foundation
public import NukeCore

extension ImageDecoders {
    /// Decodes JPEG with libjpeg-turbo into a premultiplied RGBA `PlatformImage` (always opaque).
    ///
    /// - Baseline and progressive JPEG, grayscale, YCbCr/RGB and CMYK/YCCK (Adobe's inverted CMYK is
    ///   recognised by its APP14 marker).
    /// - The EXIF orientation (all eight values) is applied to the pixels, so the image is upright.
    /// - Thumbnails: when the request asks for a `ImageRequest.thumbnail`, the image is decoded with DCT
    ///   scaling at the smallest of 1/8, 1/4 or 1/2 that still covers the thumbnail size, which is several
    ///   times faster than a full decode and uses a fraction of the memory. The result is at least as large
    ///   as the thumbnail; resizing to the exact size is left to the pipeline's processors.
    /// - Progressive previews: ``decodePartiallyDownloadedData(_:)`` renders the completed scans of a
    ///   progressive JPEG each time another scan has arrived.
    ///
    /// ## Safety
    /// The image size is read from the header and checked against ``Configuration/maximumPixelCount``
    /// before any pixel memory is allocated, decoding stops after ``Configuration/maximumScanCount`` scans, and libjpeg's
    /// fatal errors are caught inside C: corrupt, truncated or hostile data throws an ``Error`` that carries
    /// libjpeg's message. Recoverable corruption that libjpeg only warns about (for example stray bytes
    /// between markers) still decodes, as browsers do.
    ///
    /// ## Registration
    /// ```swift
    /// ImageDecoders.JPEG.register(in: .shared)
    /// // or: ImageDecoderRegistry.shared.register(ImageDecoders.JPEG.init(context:))
    /// ```
    ///
    /// The decoder is `Sendable`; ``decode(_:)`` may be called from any thread. Previews keep the scan
    /// count of the image being loaded, so use one instance per image when decoding progressively (the
    /// pipeline does).
    public struct JPEG: ConfigurableImageDecoding, Sendable {
        /// The limits and options of the decoder.
        public let configuration: Configuration

        /// The size the request wants (its thumbnail and scale).
        let target: ImageDecodingTarget
        /// The state of progressive previews.
        let previews = PreviewState()
        /// The context's colour converter: full-size decodes convert rows to sRGB as they are written.
        let colorConverter: (any ColorConverting)?

        /// Creates a decoder that decodes at full size.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
            self.target = ImageDecodingTarget()
            self.colorConverter = nil
        }

        /// Returns a decoder with the given configuration if the context's data is JPEG (by its magic bytes,
        /// never by the URL), or `nil`. The decoder honours the request's `ImageRequest.thumbnail` and scale.
        public init?(context: ImageDecodingContext, configuration: Configuration) {
            guard context.type == .jpeg else { return nil }
            self.configuration = configuration
            self.target = ImageDecodingTarget(request: context.request)
            self.colorConverter = context.colorConverter
        }

        /// Decodes the complete data.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData` (with libjpeg's message), `truncatedData` when the
        ///   data ends before the last row, `imageTooLarge`, `unsupportedColorSpace` or `outOfMemory`.
        public func decode(_ data: Data) throws -> ImageContainer {
            let image = try decodeImage(data, allowsTruncation: false)
            return ImageContainer(image: image, type: .jpeg)
        }

        func decodeImage(_ data: Data, allowsTruncation: Bool) throws -> PlatformImage {
            guard !data.isEmpty else { throw Error.emptyData }
            return try data.withUnsafeBytes { bytes in
                var decoding = JPEGDecoding(configuration: configuration, target: target)
                // Previews keep their profile: the pipeline converts them after decoding.
                decoding.colorConverter = allowsTruncation ? nil : colorConverter
                return try decoding.decode(bytes, allowsTruncation: allowsTruncation)
            }
        }
    }
}
