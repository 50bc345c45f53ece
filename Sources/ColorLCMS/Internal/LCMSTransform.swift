internal import CLCMS2
internal import CLCMS2Shim

/// A conversion from an image's profile to sRGB for 8-bit RGBA.
///
/// Opaque images go through a lookup table that lcms2 fills once (CLCMS2Shim_LUT_GRID³ nodes, one every 5 input
/// levels, 16-bit) and that C interpolates tetrahedrally: lcms2's own 8-bit transform costs about 25 ns a pixel,
/// the table a few, and it agrees with lcms2 within a level. Images with alpha go through an lcms2 transform on
/// its premultiplied format, deleted with `cmsDeleteTransform` by its one owner here.
// @unchecked Sendable: nothing is mutated after creation; the lcms2 handle is made with cmsFLAGS_NOCACHE, so lcms2
// keeps no per-call state in it and `cmsDoTransformLineStride` may run on several threads at once.
final class LCMSTransform: @unchecked Sendable {
    private enum Storage {
        case table([UInt16])
        case premultiplied(cmsHTRANSFORM)
    }

    private let storage: Storage

    /// Builds the conversion from `source` to lcms2's sRGB; `nil` when lcms2 can't (a profile that isn't RGB, or
    /// whose tags don't make a transform).
    init?(from source: LCMSProfile, premultiplied: Bool, intent: LCMSColorConverter.Intent) {
        guard source.isRGB, let destination = LCMSProfile.sRGB() else { return nil }
        let lcmsIntent = cmsUInt32Number(intent == .perceptual ? INTENT_PERCEPTUAL : INTENT_RELATIVE_COLORIMETRIC)
        if premultiplied {
            let format = CLCMS2Shim_FormatRGBA8(1)
            let flags = cmsUInt32Number(cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE)
            guard
                let handle = cmsCreateTransform(
                    source.handle, format, destination.handle, format, lcmsIntent, flags)
            else { return nil }
            storage = .premultiplied(handle)
        } else {
            let format = CLCMS2Shim_FormatRGB16()
            guard
                let handle = cmsCreateTransform(
                    source.handle, format, destination.handle, format, lcmsIntent, cmsUInt32Number(cmsFLAGS_NOCACHE))
            else { return nil }
            defer { cmsDeleteTransform(handle) }
            let grid = Int(CLCMS2Shim_LUT_GRID)
            var nodes = [UInt16](repeating: 0, count: grid * grid * grid * 3)
            var index = 0
            for red in 0..<grid {
                for green in 0..<grid {
                    for blue in 0..<grid {
                        // Node n is input level 5n, as 16 bits.
                        nodes[index] = UInt16(red * 5 * 257)
                        nodes[index + 1] = UInt16(green * 5 * 257)
                        nodes[index + 2] = UInt16(blue * 5 * 257)
                        index += 3
                    }
                }
            }
            var table = [UInt16](repeating: 0, count: nodes.count)
            cmsDoTransform(handle, nodes, &table, cmsUInt32Number(grid * grid * grid))
            storage = .table(table)
        }
    }

    deinit {
        if case let .premultiplied(handle) = storage {
            cmsDeleteTransform(handle)
        }
    }

    /// Converts `rows` rows of `width` pixels at `pixels` in place.
    func apply(_ pixels: UnsafeMutableRawPointer, width: Int, rows: Int, bytesPerRow: Int) {
        switch storage {
        case let .table(table):
            table.withUnsafeBufferPointer { table in
                CLCMS2Shim_ApplyLUT(
                    table.baseAddress, pixels.assumingMemoryBound(to: UInt8.self), width, rows, bytesPerRow)
            }
        case let .premultiplied(handle):
            cmsDoTransformLineStride(
                handle, pixels, pixels, cmsUInt32Number(width), cmsUInt32Number(rows),
                cmsUInt32Number(bytesPerRow), cmsUInt32Number(bytesPerRow), cmsUInt32Number(bytesPerRow * rows),
                cmsUInt32Number(bytesPerRow * rows))
        }
    }
}
