/// Converts an image's pixels from its ``PlatformImage/colorProfile`` to sRGB.
///
/// The pipeline calls its ``ImagePipeline/Configuration/colorConverter`` once per decoded image, right after
/// decoding (and the request's thumbnail), so that processors, encoders and the app see sRGB pixels. NukeCore has
/// no converter of its own (it links no C library); the `ColorLCMS` product has one on lcms2, and the `Nuke`
/// product's configurations set it.
///
/// ## Contract
/// - Called on the pipeline's decoding queue, from several threads at once: implementations are thread-safe.
/// - Only called for an image whose ``PlatformImage/colorProfile`` is not `nil`.
/// - Converts the image in place: sRGB pixels and a `nil` profile, its size, ``PlatformImage/scale`` and
///   ``PlatformImage/isOpaque`` unchanged, in the premultiplied RGBA layout ``PlatformImage`` documents. The
///   pipeline hands over the only reference to the decoded pixels, so writing them through
///   ``PlatformImage/withUnsafeMutableBytes(_:)`` copies nothing (a 12 MP image is 48 MB).
/// - Throws when it can't use the profile (damaged bytes, a colour space it doesn't handle, such as BT.2020 with
///   PQ), leaving the image as it was: the pipeline then keeps the decoded pixels and drops the profile (treated
///   as sRGB), so a damaged profile never fails a request.
public protocol ColorConverting: Sendable {
    /// Converts `image` from its ``PlatformImage/colorProfile`` to sRGB and sets its profile to `nil`.
    ///
    /// - Throws: An error of the converter's own when the profile can't be used; `image` is then unchanged.
    func convertToSRGB(_ image: inout PlatformImage) throws

    /// Returns a converter for rows of pixels in `profile` to sRGB, or `nil` when rows can't be converted
    /// separately for it; see the default implementation, which returns `nil`.
    func makeRowConverter(for profile: ColorProfile, isOpaque: Bool) -> (any ColorRowConverting)?
}

/// Converts bands of rows of premultiplied RGBA pixels, in place, from one colour profile to sRGB: what a
/// ``ColorConverting`` converter makes for a decoder that converts as it writes rows.
///
/// ## Contract
/// - Thread-safe: a decoder may convert several bands at once, on different threads, each band's rows disjoint.
/// - Converts exactly the `rowCount` rows of `width` pixels at `pixels`, `bytesPerRow` apart, and nothing else.
public protocol ColorRowConverting: Sendable {
    /// Converts `rowCount` rows of `width` RGBA pixels (4 bytes each, premultiplied) starting at `pixels`, each
    /// row `bytesPerRow` bytes after the previous one, in place.
    func convertRows(_ pixels: UnsafeMutableRawPointer, width: Int, rowCount: Int, bytesPerRow: Int)
}

extension ColorConverting {
    /// Returns a converter for rows of pixels in `profile`, for a decoder that converts as it decodes (see
    /// ``ImageDecodingContext/colorConverter``); `nil` when this converter can't convert rows for `profile`
    /// (the default: the pipeline then converts the whole image after decoding).
    ///
    /// A row converter must give the same pixels as ``convertToSRGB(_:)-(inout PlatformImage)`` does for an
    /// image with `profile` and opacity `isOpaque`, so converting while decoding changes speed, not output.
    public func makeRowConverter(for profile: ColorProfile, isOpaque: Bool) -> (any ColorRowConverting)? {
        nil
    }

    /// Returns `image` converted from its ``PlatformImage/colorProfile`` to sRGB, with a `nil` profile: the
    /// in-place ``convertToSRGB(_:)-(inout PlatformImage)`` on a copy (which copies the pixels only if `image`
    /// is also kept by the caller).
    ///
    /// - Throws: What the in-place conversion throws.
    public func convertToSRGB(_ image: PlatformImage) throws -> PlatformImage {
        var converted = image
        try convertToSRGB(&converted)
        return converted
    }
}
