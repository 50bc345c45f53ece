internal import CLCMS2
internal import CLCMS2Shim
internal import NukeCore

/// A conversion from an image's profile to sRGB for 8-bit RGBA: an lcms2 transform, deleted with
/// `cmsDeleteTransform` by its one owner here, on lcms2's RGBA format (alpha copied) for opaque images and its
/// premultiplied format for the others; for opaque images with a matrix/TRC profile, `LCMSMatrixShaper`'s tables.
// @unchecked Sendable: nothing is mutated after creation; the lcms2 handle is made with cmsFLAGS_NOCACHE, so lcms2
// keeps no per-call state in it and `cmsDoTransformLineStride` may run on several threads at once.
final class LCMSTransform: ColorRowConverting, @unchecked Sendable {
    private let handle: cmsHTRANSFORM
    /// For an opaque image and a matrix/TRC profile: the same conversion as tables, several times faster.
    private let matrixShaper: LCMSMatrixShaper?
    private let isPremultiplied: Bool

    /// Builds the conversion from `source` to lcms2's sRGB; `nil` when lcms2 can't (a profile that isn't RGB, or
    /// whose tags don't make a transform).
    init?(from source: LCMSProfile, premultiplied: Bool, intent: LCMSColorConverter.Intent) {
        guard source.isRGB, let destination = LCMSProfile.sRGB() else { return nil }
        let lcmsIntent = cmsUInt32Number(intent == .perceptual ? INTENT_PERCEPTUAL : INTENT_RELATIVE_COLORIMETRIC)
        let format = CLCMS2Shim_FormatRGBA8(premultiplied ? 1 : 0)
        let flags = cmsUInt32Number(cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE)
        guard
            let handle = cmsCreateTransform(source.handle, format, destination.handle, format, lcmsIntent, flags)
        else { return nil }
        self.handle = handle
        isPremultiplied = premultiplied
        matrixShaper = premultiplied ? nil : LCMSMatrixShaper(from: source, to: destination, intent: lcmsIntent)
    }

    deinit {
        cmsDeleteTransform(handle)
    }

    /// Converts `rowCount` rows of `width` pixels at `pixels` in place (`ColorRowConverting`).
    func convertRows(_ pixels: UnsafeMutableRawPointer, width: Int, rowCount: Int, bytesPerRow: Int) {
        apply(pixels, width: width, rows: rowCount, bytesPerRow: bytesPerRow)
    }

    /// Converts `rows` rows of `width` pixels at `pixels` in place.
    func apply(_ pixels: UnsafeMutableRawPointer, width: Int, rows: Int, bytesPerRow: Int) {
        if let matrixShaper {
            return matrixShaper.apply(pixels, width: width, rows: rows, bytesPerRow: bytesPerRow)
        }
        cmsDoTransformLineStride(
            handle, pixels, pixels, cmsUInt32Number(width), cmsUInt32Number(rows), cmsUInt32Number(bytesPerRow),
            cmsUInt32Number(bytesPerRow), cmsUInt32Number(bytesPerRow * rows), cmsUInt32Number(bytesPerRow * rows))
        if isPremultiplied {
            CLCMS2Shim_ClampToAlpha(pixels.assumingMemoryBound(to: UInt8.self), width, rows, bytesPerRow)
        }
    }
}
