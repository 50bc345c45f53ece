public import Foundation
public import NukeCore

extension ImageDecoders.JXL {
    /// Returns a preview of a partially downloaded still JPEG XL, or `nil` when there is nothing to show yet.
    ///
    /// Each call decodes `data` (the whole download so far) from the start with libjxl's progressive rendering
    /// (`JxlDecoderFlushImage`): the first preview is the 1:8 DC image upsampled, later ones add the passes and
    /// groups that arrived; a progressively encoded file (`cjxl -p`) gives the most steps. The preview has the
    /// final image's size; areas with no data yet are transparent. The headers that have arrived are checked
    /// against the ``Configuration`` first, as for a full decode. Animations and data that fails to decode
    /// produce no previews. Never throws; thread-safe (no state is kept between calls).
    public func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
        guard !data.isEmpty else { return nil }
        let configuration = configuration
        let image = data.withUnsafeBytes { bytes -> PlatformImage? in
            guard let headers = try? JXLHeaders(bytes: bytes, configuration: configuration, isPartial: true),
                !headers.isAnimated
            else { return nil }
            return (try? JXLFrameDecoder(bytes: bytes, headers: headers, isPartial: true))?.preview()
        }
        return image.map { ImageContainer(image: $0, type: .jxl, isPreview: true) }
    }
}
