/// The formats the service encodes results in.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, webp, avif, jxl

    /// The format an extension names (`jpg`, `jpeg`, `png`, `webp`, `avif`, `jxl`; any case), or `nil`.
    public init?(extension text: String) {
        switch text.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "avif": self = .avif
        case "jxl": self = .jxl
        default: return nil
        }
    }

    /// The media type sent as `Content-Type` (`image/jxl` for JPEG XL).
    public var mimeType: String {
        "image/\(rawValue)"
    }

    /// The file extension, e.g. `jpg`.
    public var fileExtension: String {
        self == .jpeg ? "jpg" : rawValue
    }

    /// `jpg, png, webp, avif, jxl`, for error messages.
    static let namesForMessages = allCases.map(\.fileExtension).joined(separator: ", ")
}
