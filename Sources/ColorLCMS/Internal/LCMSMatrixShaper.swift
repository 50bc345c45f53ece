internal import CLCMS2
internal import CLCMS2Shim

/// The conversion of a matrix/TRC RGB profile (most camera, display and working-space profiles: Display P3,
/// Adobe RGB, ProPhoto) to sRGB as tables: each input level's linear light from the profile's curves, the 3×3
/// matrix from its colorants to sRGB's, and sRGB's curve. It is what lcms2 computes for these profiles (relative
/// colorimetric and perceptual are the same without perceptual tables), done by a branch-free C loop several
/// times faster than lcms2's general 8-bit transform. The curves and the matrix are folded into one table per
/// input channel: entry `level` holds that level's linear light times the matrix column, as fixed-point indices
/// into the output table, so a pixel costs three table loads, two vector adds and three output lookups.
final class LCMSMatrixShaper: Sendable {
    /// 3 × 256 groups of (red, green, blue, unused) terms; see `CLCMS2Shim_ApplyMatrixShaper`.
    private let terms: [Int32]
    private let encode: [UInt8]

    /// The tables for `source` into `destination` (lcms2's sRGB); `nil` unless both are matrix/TRC profiles whose
    /// conversion is a matrix (no lookup tables for `intent`, colorants that can be inverted).
    init?(from source: LCMSProfile, to destination: LCMSProfile, intent: cmsUInt32Number) {
        guard cmsIsMatrixShaper(source.handle) != 0,
            cmsIsCLUT(source.handle, intent, cmsUInt32Number(LCMS_USED_AS_INPUT)) == 0,
            let sourceColorants = Self.colorants(of: source),
            let destinationColorants = Self.colorants(of: destination),
            let inverse = Self.inverse(destinationColorants),
            let curves = Self.curves(of: source), let sRGBCurves = Self.curves(of: destination),
            let reversed = cmsReverseToneCurve(sRGBCurves[0])
        else { return nil }
        defer { cmsFreeToneCurve(reversed) }
        var matrix = [Float](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                let value = (0..<3).reduce(0.0) { $0 + inverse[row * 3 + $1] * sourceColorants[$1 * 3 + column] }
                matrix[row * 3 + column] = Float(value)
            }
        }
        let count = Int(CLCMS2Shim_ENCODE_COUNT)
        let fraction = Int(CLCMS2Shim_TERM_FRACTION_BITS)
        // Output-table steps in fixed point. A term is limited to ±2^28, so three of them and the bias never
        // overflow the C loop's Int32 sum; real profiles stay far below (|matrix| < 8, linear light ≤ 1).
        let scale = Double(count - 1) * Double(1 << fraction)
        let limit = Double(1 << 28)
        guard matrix.allSatisfy({ abs($0) < 8 }) else { return nil }
        var terms = [Int32](repeating: 0, count: 3 * 256 * 4)
        for channel in 0..<3 {
            for level in 0..<256 {
                let linear = Double(cmsEvalToneCurveFloat(curves[channel], Float(level) / 255))
                for output in 0..<3 {
                    let term = (Double(matrix[output * 3 + channel]) * linear * scale).rounded()
                    terms[(channel * 256 + level) * 4 + output] =
                        term.isFinite ? Int32(max(-limit, min(limit, term))) : 0
                }
            }
        }
        // The range of any pixel's sum: per output, each channel's smallest and largest term added up. Red's
        // terms carry a bias (whole steps, plus half a step to round) that lifts the smallest sum to 0.
        var (lowest, highest) = (0, 0)
        for output in 0..<3 {
            var (low, high) = (0, 0)
            for channel in 0..<3 {
                let values = (0..<256).map { Int(terms[(channel * 256 + $0) * 4 + output]) }
                low += values.min() ?? 0
                high += values.max() ?? 0
            }
            lowest = min(lowest, low)
            highest = max(highest, high)
        }
        let offset = (-lowest + (1 << fraction) - 1) >> fraction  // steps below linear 0
        let bias = offset << fraction + (1 << (fraction - 1))
        let entryCount = (highest + bias) >> fraction + 1
        guard entryCount <= Self.maximumEncodeCount else { return nil }  // A profile no camera or screen makes.
        for index in stride(from: 0, to: 256 * 4, by: 4) {
            for output in 0..<3 {
                terms[index + output] += Int32(bias)
            }
        }
        var sRGB = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            let value = cmsEvalToneCurveFloat(reversed, Float(index) / Float(count - 1))
            sRGB[index] = UInt8(max(0, min(255, (value * 255).rounded())))
        }
        // Below linear 0: black; above 1: white; in between, the curve.
        self.encode = (0..<entryCount).map { index in sRGB[max(0, min(count - 1, index - offset))] }
        self.terms = terms
    }

    /// The most entries the output table may have (1 MB): linear light from about -32 to 32.
    private static let maximumEncodeCount = 1 << 20

    /// Converts `rows` rows of `width` opaque pixels at `pixels` in place.
    func apply(_ pixels: UnsafeMutableRawPointer, width: Int, rows: Int, bytesPerRow: Int) {
        terms.withUnsafeBufferPointer { terms in
            encode.withUnsafeBufferPointer { encode in
                CLCMS2Shim_ApplyMatrixShaper(
                    terms.baseAddress, encode.baseAddress, pixels.assumingMemoryBound(to: UInt8.self), width, rows,
                    bytesPerRow)
            }
        }
    }

    /// The colorants as a row-major matrix whose columns are red's, green's and blue's XYZ (PCS, D50).
    private static func colorants(of profile: LCMSProfile) -> [Double]? {
        var columns: [cmsCIEXYZ] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let raw = cmsReadTag(profile.handle, tag) else { return nil }
            columns.append(raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
        }
        return [
            columns[0].X, columns[1].X, columns[2].X,
            columns[0].Y, columns[1].Y, columns[2].Y,
            columns[0].Z, columns[1].Z, columns[2].Z,
        ]
    }

    /// The red, green and blue tone curves, owned by the profile.
    private static func curves(of profile: LCMSProfile) -> [OpaquePointer]? {
        var curves: [OpaquePointer] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let raw = cmsReadTag(profile.handle, tag) else { return nil }
            curves.append(OpaquePointer(raw))
        }
        return curves
    }

    /// The inverse of a row-major 3×3 matrix, or `nil` when it is singular.
    private static func inverse(_ m: [Double]) -> [Double]? {
        let determinant =
            m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
        guard abs(determinant) > 1e-12 else { return nil }
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return cofactors.map { $0 / determinant }
    }
}
