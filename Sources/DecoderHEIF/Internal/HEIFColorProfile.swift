internal import CHEIF
internal import CHEIFShim
import Foundation
import NukeCore

/// The colour description of an image item as the file stores it: its raw ICC profile and its nclx values
/// (ITU-T H.273 code points). Decoding hands it to the pipeline's colour converter (``handedOver``) and doesn't
/// convert colour itself.
struct HEIFColorProfile: Hashable, Sendable {
    /// The nclx colour description of a `colr` box.
    struct NCLX: Hashable, Sendable {
        var colorPrimaries: Int
        var transferCharacteristics: Int
        var matrixCoefficients: Int
        var isFullRange: Bool
    }

    /// The bytes of the `prof` or `rICC` colour box, or `nil`.
    var icc: Data?
    /// The `nclx` colour box, or `nil` (an nclx only in the HEVC stream is not read by libheif 1.15).
    var nclx: NCLX?

    /// What the decoded image carries as `PlatformImage.colorProfile`: the ICC profile first, else the nclx values
    /// unless they mean sRGB (or are out of H.273's range); `nil` for sRGB.
    var handedOver: ColorProfile? {
        if let icc { return .icc(icc) }
        guard let nclx,
            let primaries = UInt16(exactly: nclx.colorPrimaries),
            let transfer = UInt16(exactly: nclx.transferCharacteristics),
            let matrix = UInt16(exactly: nclx.matrixCoefficients)
        else { return nil }
        let cicp = ColorProfile.CICP(
            colorPrimaries: primaries, transferCharacteristics: transfer, matrixCoefficients: matrix,
            isFullRange: nclx.isFullRange)
        return cicp.isSRGB ? nil : .cicp(cicp)
    }
}

extension HEIFImageHandle {
    /// The image's colour description; a profile libheif can't read counts as absent.
    var colorProfile: HEIFColorProfile {
        var profile = HEIFColorProfile()
        let size = CHEIFShim_ICCProfileSize(handle)
        if size > 0 {
            var bytes = Data(count: size)
            let error = bytes.withUnsafeMutableBytes { buffer in
                CHEIFShim_CopyICCProfile(handle, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), size)
            }
            if error.code == heif_error_Ok { profile.icc = bytes }
        }
        var nclx = CHEIFShimNCLX()
        if CHEIFShim_ReadNCLX(handle, &nclx).code == heif_error_Ok {
            profile.nclx = .init(
                colorPrimaries: Int(nclx.colorPrimaries), transferCharacteristics: Int(nclx.transferCharacteristics),
                matrixCoefficients: Int(nclx.matrixCoefficients), isFullRange: nclx.fullRange != 0)
        }
        return profile
    }
}

extension HEIFReader {
    /// The primary image's colour description, read from `data` without decoding any image.
    ///
    /// - Throws: ``ImageDecoders/HEIF/Error`` when libheif can't read the container.
    static func primaryColorProfile(
        of data: Data, configuration: ImageDecoders.HEIF.Configuration = .init()
    ) throws -> HEIFColorProfile {
        guard !data.isEmpty else { throw ImageDecoders.HEIF.Error.emptyData }
        return try data.withUnsafeBytes { bytes in
            try HEIFReader(bytes: bytes, configuration: configuration).primaryImage().colorProfile
        }
    }
}
