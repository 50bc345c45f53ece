internal import CLCMS2
import Foundation
import NukeCore

/// The one owner of an lcms2 profile handle, closed with `cmsCloseProfile`.
final class LCMSProfile {
    let handle: cmsHPROFILE

    private init(handle: cmsHPROFILE) {
        self.handle = handle
    }

    deinit {
        cmsCloseProfile(handle)
    }

    /// Reads ICC bytes; `nil` when lcms2 rejects them.
    convenience init?(iccData: Data) {
        guard !iccData.isEmpty, iccData.count <= Int(UInt32.max) else { return nil }
        let handle = iccData.withUnsafeBytes { bytes in
            cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(bytes.count))
        }
        guard let handle else { return nil }
        self.init(handle: handle)
    }

    /// lcms2's built-in sRGB profile, the destination of every transform.
    static func sRGB() -> LCMSProfile? {
        cmsCreate_sRGBProfile().map { LCMSProfile(handle: $0) }
    }

    /// A matrix/TRC profile for a CICP description the converter handles (Display P3 primaries, D65 white, the
    /// sRGB transfer); `nil` for any other.
    static func make(cicp: ColorProfile.CICP) -> LCMSProfile? {
        guard cicp.colorPrimaries == ColorProfile.CICP.primariesDisplayP3,
            cicp.transferCharacteristics == ColorProfile.CICP.transferSRGB
        else { return nil }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
            Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        // IEC 61966-2-1 as lcms2's parametric curve type 4: Y = (aX + b)^g for X >= d, else cX.
        let parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, 4, parameters) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        let curves: [OpaquePointer?] = [curve, curve, curve]
        let handle = curves.withUnsafeBufferPointer { cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }
        return handle.map { LCMSProfile(handle: $0) }
    }

    /// `true` for an RGB profile, the only kind whose pixels `PlatformImage` holds.
    var isRGB: Bool {
        cmsGetColorSpace(handle) == cmsSigRgbData
    }

    /// The profile's description tag in English, or `nil` when it has none.
    var descriptionText: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = cmsGetProfileInfoASCII(
            handle, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
        guard length > 0 else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
