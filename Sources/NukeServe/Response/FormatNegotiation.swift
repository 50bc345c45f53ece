import Foundation

/// Chooses the output format of a result: the one the URL asks for, else the best one the client accepts.
public enum FormatNegotiation {
    /// The chosen format and whether the choice depended on `Accept` (then the response carries `Vary: Accept`).
    public struct Choice: Sendable, Hashable {
        public var format: OutputFormat
        public var dependsOnAccept: Bool

        /// Makes a choice.
        public init(format: OutputFormat, dependsOnAccept: Bool) {
            self.format = format
            self.dependsOnAccept = dependsOnAccept
        }
    }

    /// Whether `Accept` may choose JPEG XL, as imgproxy's `IMGPROXY_AUTO_JXL` and `IMGPROXY_ENFORCE_JXL` (its
    /// `IMGPROXY_ENABLE_JXL_DETECTION`) decide: off unless turned on, since few clients decode JPEG XL.
    public enum JXLDetection: String, Sendable, Hashable, CaseIterable {
        /// `Accept` never chooses JPEG XL; only a URL that names it (`f:jxl`, `@jxl`) gets it. The default.
        case disabled
        /// A URL without a format gets JPEG XL when `Accept` names `image/jxl`, before AVIF and WebP.
        case enabled
        /// As `enabled`, and a URL that names another format gets JPEG XL too when `Accept` names `image/jxl`.
        case enforced
    }

    /// - Parameters:
    ///   - requested: the format the URL names (option or extension), which wins unless `jxl` is `.enforced` and
    ///     the client accepts JPEG XL.
    ///   - accept: the request's `Accept` header.
    ///   - source: the source's own format, if it is one the service encodes.
    ///   - fallback: the format for a source in another format (GIF, SVG, …) when the client accepts no better one.
    ///   - available: the formats the service has encoders for.
    ///   - jxl: whether `Accept` may choose JPEG XL.
    /// - Returns: JPEG XL when `jxl` is `.enforced`, `Accept` names it and an encoder is available; else
    ///   `requested`; else the first of JPEG XL (unless `jxl` is `.disabled`), AVIF and WebP that `Accept` names
    ///   (not through a wildcard) with a non-zero quality and that has an encoder; else the source's format, else
    ///   `fallback`. `dependsOnAccept` is `true` unless the URL's format was used and no enforcement could have
    ///   changed it.
    public static func choose(
        requested: OutputFormat?, accept: String?, source: OutputFormat?, fallback: OutputFormat,
        available: Set<OutputFormat>, jxl: JXLDetection = .disabled
    ) -> Choice {
        if let requested {
            let enforcing = jxl == .enforced && available.contains(.jxl) && requested != .jxl
            let format = self.requested(requested, accept: accept, available: available, jxl: jxl) ?? requested
            return Choice(format: format, dependsOnAccept: enforcing)
        }
        if let preferred = preferred(accept: accept, available: available, jxl: jxl) {
            return Choice(format: preferred, dependsOnAccept: true)
        }
        let own = source.flatMap { available.contains($0) ? $0 : nil } ?? fallback
        return Choice(format: own, dependsOnAccept: true)
    }

    /// The format the URL's `requested` format becomes: JPEG XL when `jxl` is `.enforced`, `Accept` names
    /// `image/jxl` and an encoder is available, else `requested` (`nil` when the URL names none). Known before the
    /// source is, so it can key a result.
    public static func requested(
        _ requested: OutputFormat?, accept: String?, available: Set<OutputFormat>, jxl: JXLDetection = .disabled
    ) -> OutputFormat? {
        guard let requested else { return nil }
        if jxl == .enforced, available.contains(.jxl), acceptedImageTypes(accept).contains(OutputFormat.jxl.mimeType) {
            return .jxl
        }
        return requested
    }

    /// The first of JPEG XL (unless `jxl` is `.disabled`), AVIF and WebP that `accept` names (not through a
    /// wildcard) with a non-zero quality and that has an encoder; `nil` when none does: then the source's own format
    /// is used. Known before the source is, so it can key a result.
    public static func preferred(
        accept: String?, available: Set<OutputFormat>, jxl: JXLDetection = .disabled
    ) -> OutputFormat? {
        let accepted = acceptedImageTypes(accept)
        let candidates: [OutputFormat] = jxl == .disabled ? [.avif, .webp] : [.jxl, .avif, .webp]
        return candidates.first { available.contains($0) && accepted.contains($0.mimeType) }
    }

    /// The media types an `Accept` header names explicitly with a quality above zero, lowercased
    /// (`image/webp;q=0.9` counts, `image/webp;q=0` and `image/*` don't).
    static func acceptedImageTypes(_ accept: String?) -> Set<String> {
        guard let accept else { return [] }
        var types: Set<String> = []
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.hasSuffix("/*") else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { types.insert(type) }
        }
        return types
    }
}
