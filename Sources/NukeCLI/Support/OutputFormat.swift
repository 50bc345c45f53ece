import Nuke

/// The formats `nuke fetch --format` writes.
enum OutputFormat: String, CaseIterable {
    case png, jpeg, webp, avif, jxl

    /// Parses a `--format` value (`jpg` is accepted for `jpeg`).
    init(argument: String) throws {
        switch argument.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg
        case "webp": self = .webp
        case "avif": self = .avif
        case "jxl": self = .jxl
        default: throw UsageError("unknown format '\(argument)' (use png, jpeg, webp, avif or jxl)")
        }
    }

    /// The file extension of written files.
    var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        case .avif: "avif"
        case .jxl: "jxl"
        }
    }

    /// The encoder: lossless PNG; JPEG, WebP, AVIF and JPEG XL at quality 0.85 (AVIF at libaom speed 8, JPEG XL at
    /// libjxl effort 7).
    var encoder: any ImageEncoding {
        switch self {
        case .png: ImageEncoders.PNG()
        case .jpeg: ImageEncoders.JPEG(quality: 0.85)
        case .webp: ImageEncoders.WebP(quality: 0.85)
        case .avif: ImageEncoders.AVIF(quality: 0.85)
        case .jxl: ImageEncoders.JXL(quality: 0.85)
        }
    }
}
