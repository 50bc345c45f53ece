public import Foundation
public import NukeCore

extension ImageDecoders {
    /// Decodes every format the workspace has a codec for — PNG, JPEG, WebP, SVG, GIF, AVIF, HEIF and JPEG XL — choosing the codec from
    /// the data (and, for SVG, the URL or `Content-Type`). Nuke's catch-all decoder, on this workspace's
    /// codecs.
    ///
    /// One instance serves one image: it keeps the codec it chose (and that codec's progressive state) between
    /// previews and the final decode. Safe to use from any thread.
    public final class Default: ImageDecoding, Sendable {
        private let codec: LockedValueBox<(any ImageDecoding)?>
        private let isThumbnail: Bool

        /// Creates a decoder that picks the codec from the first data it is given.
        public init() {
            codec = LockedValueBox(nil)
            isThumbnail = false
        }

        /// Creates a decoder for the image in `context`, or returns `nil` if no codec handles it.
        public init?(context: ImageDecodingContext) {
            guard let codec = Default.codec(for: context) else { return nil }
            self.codec = LockedValueBox(codec)
            isThumbnail = context.request.thumbnail != nil
        }

        /// `true` when decoding a thumbnail, the slower path, as in Nuke (decodes run on the decoding queue
        /// whatever the value).
        public var isAsynchronous: Bool { isThumbnail }

        /// Decodes `data` with the chosen codec; throws ``ImageDecodingError/unknown`` if no codec handles it.
        public func decode(_ data: Data) throws -> ImageContainer {
            guard let codec = codec(for: data) else { throw ImageDecodingError.unknown }
            return try codec.decode(data)
        }

        /// A preview from partially downloaded data, if the chosen codec can make one.
        public func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
            codec(for: data)?.decodePartiallyDownloadedData(data)
        }

        private func codec(for data: Data) -> (any ImageDecoding)? {
            codec.withLock { codec in
                if codec == nil {
                    codec = Default.codec(for: ImageDecodingContext(request: ImageRequest(url: nil), data: data))
                }
                return codec
            }
        }

        private static func codec(for context: ImageDecodingContext) -> (any ImageDecoding)? {
            if let decoder = ImageDecoders.PNG(context: context) { return decoder }
            if let decoder = ImageDecoders.JPEG(context: context) { return decoder }
            if let decoder = ImageDecoders.WebP(context: context) { return decoder }
            if let decoder = ImageDecoders.GIF(context: context) { return decoder }
            if let decoder = ImageDecoders.AVIF(context: context) { return decoder }
            if let decoder = ImageDecoders.HEIF(context: context) { return decoder }
            if let decoder = ImageDecoders.JXL(context: context) { return decoder }
            return ImageDecoders.SVG(context: context)
        }
    }
}

extension ImageRequest.ThumbnailOptions {
    /// Decodes a thumbnail of `data` with these options: at reduced size where the codec can (JPEG DCT scaling,
    /// WebP's scaler, SVG at the target size, a HEIF thumbnail item), then resized to exactly what the options ask for. Returns `nil`
    /// if no codec (PNG, JPEG, WebP, SVG, GIF, AVIF, HEIF, JPEG XL) decodes the data.
    ///
    /// Runs synchronously on the calling thread; the pipeline does the same for requests with
    /// ``ImageRequest/thumbnail`` off its actor.
    public func makeThumbnail(with data: Data) -> PlatformImage? {
        var request = ImageRequest(url: nil)
        request.thumbnail = self
        let context = ImageDecodingContext(request: request, data: data)
        guard let decoder = ImageDecoders.Default(context: context),
            let image = try? decoder.decode(data).image
        else { return nil }
        return try? makeThumbnail(from: image, scale: nil)
    }
}
