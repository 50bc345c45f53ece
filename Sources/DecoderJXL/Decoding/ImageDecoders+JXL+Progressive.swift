public import Foundation
public import NukeCore

extension ImageDecoders.JXL {
    /// Returns a preview of a partially downloaded still JPEG XL, or `nil` when there is nothing to show yet.
    ///
    /// One libjxl decoder is kept for the download and fed only the bytes that arrived since the previous call
    /// (`data` must be the whole download so far, growing between calls); each call returns what libjxl can render
    /// so far (`JxlDecoderFlushImage`): the 1:8 DC image upsampled at first, then the groups that arrived. libjxl 0.7
    /// renders a partial frame only for an image of more than one 256×256 group; a progressively encoded file
    /// (`cjxl -p`) sends its DC first. The preview has the final image's size; areas with no data yet are
    /// transparent. The frame headers that have arrived are checked against the ``Configuration`` first, as for a
    /// full decode. Animations, data that fails to decode, and calls after the first frame is complete or after
    /// ``decode(_:)`` produce no previews. Never throws; thread-safe.
    public func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
        incremental.preview(data: data, configuration: configuration).map {
            ImageContainer(image: $0, type: .jxl, isPreview: true)
        }
    }
}
