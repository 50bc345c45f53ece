/// The size a request wants decoded: its ``ImageRequest/thumbnail`` (if any) and its scale, taken from the
/// decoding context. Codecs that can decode at a reduced size (JPEG's DCT scaling, WebP's scaler, SVG) ask it
/// for the pixel size; the others decode at full size and let the pipeline resize.
public struct ImageDecodingTarget: Sendable, Hashable {
    /// The thumbnail the request asked for, or `nil` for a full-size decode.
    public var thumbnail: ImageRequest.ThumbnailOptions?
    /// The request's scale (points to pixels), used to size a thumbnail given in points; 1 if it has none.
    public var scale: Float

    /// A target of `thumbnail` (the full size if `nil`) at `scale`.
    public init(thumbnail: ImageRequest.ThumbnailOptions? = nil, scale: Float = 1) {
        self.thumbnail = thumbnail
        self.scale = scale
    }

    /// The target of `request`: its thumbnail and scale.
    public init(request: ImageRequest) {
        thumbnail = request.thumbnail
        scale = request.scale ?? 1
    }

    /// The output size for an image of `width × height` pixels: the thumbnail's target size (see
    /// ``ImageRequest/ThumbnailOptions/targetPixelSize(width:height:scale:)``), else the full size.
    public func pixelSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard let thumbnail else { return (width, height) }
        return thumbnail.targetPixelSize(width: width, height: height, scale: scale)
    }
}
