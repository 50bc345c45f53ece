public import Foundation

/// The colour space an image's pixels are in, as its file described it: the bytes of an embedded ICC profile,
/// or a coding-independent code point (CICP, ITU-T H.273) description such as AVIF's `nclx` or PNG's `cICP`.
///
/// Decoders set ``PlatformImage/colorProfile`` to what they find and leave the pixels as they are; a
/// ``ColorConverting`` converter (the pipeline's ``ImagePipeline/Configuration/colorConverter``) turns them into
/// sRGB. `nil` (no profile) means sRGB or unknown, and is treated as sRGB. Nuke has no such value: on Apple
/// platforms `CGImage` carries its colour space and Core Graphics converts while drawing.
///
/// ## Contract
/// A profile is a description, never validated here: ICC bytes may be damaged, and a converter that can't use
/// them throws. Two profiles are equal when their bytes (or code points) are equal.
public enum ColorProfile: Sendable, Hashable {
    /// An ICC profile (ICC.1, versions 2 and 4), its bytes as embedded: JPEG's reassembled `APP2 ICC_PROFILE`
    /// chunks, PNG's inflated `iCCP`, WebP's `ICCP`, AVIF's `colr` of type `prof`/`rICC`.
    case icc(Data)
    /// A description by code points (ITU-T H.273): AVIF's `colr` of type `nclx`, PNG's `cICP`.
    case cicp(CICP)

    /// The ICC bytes, or `nil` for a CICP description.
    public var iccData: Data? {
        if case let .icc(data) = self { return data }
        return nil
    }

    /// The CICP description, or `nil` for an ICC profile.
    public var cicpValue: CICP? {
        if case let .cicp(value) = self { return value }
        return nil
    }
}

extension ColorProfile: CustomStringConvertible {
    /// `"ICC profile (N bytes)"` or the CICP description (see ``CICP/description``).
    public var description: String {
        switch self {
        case let .icc(data): "ICC profile (\(data.count) bytes)"
        case let .cicp(value): value.description
        }
    }
}
