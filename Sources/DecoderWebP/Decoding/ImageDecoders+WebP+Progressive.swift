public import Foundation
public import NukeCore

extension ImageDecoders.WebP {
    /// Returns a preview of a partially downloaded still WebP each time more rows have been decoded, or
    /// `nil` when there is nothing new to show.
    ///
    /// libwebp's incremental decoder is fed only the bytes that arrived since the previous call (`data`
    /// must be the whole download so far, growing between calls). The preview has the final image's size
    /// (the thumbnail size if one is asked for); rows that haven't arrived yet are transparent. Animated
    /// files, and data that fails to decode, produce no previews. Never throws; thread-safe.
    public func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
        let configuration = configuration
        let target = target
        let image = incremental.preview(data: data) { features in
            try features.checkSize(configuration)
            guard !features.hasAnimation else { return nil }
            let size = target.pixelSize(width: features.width, height: features.height)
            return try WebPIncrementalDecoder(width: size.width, height: size.height, features: features)
        }
        return image.map { ImageContainer(image: $0, type: .webp, isPreview: true) }
    }
}
