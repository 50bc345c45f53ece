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

    /// - Parameters:
    ///   - requested: the format the URL names (option or extension), which always wins.
    ///   - accept: the request's `Accept` header.
    ///   - source: the source's own format, if it is one the service encodes.
    ///   - fallback: the format for a source in another format (GIF, SVG, …) when the client accepts no better one.
    ///   - available: the formats the service has encoders for.
    /// - Returns: `requested`; else AVIF, then WebP, when `Accept` names them (not through a wildcard) with a
    ///   non-zero quality and an encoder is available; else the source's format, else `fallback`.
    public static func choose(
        requested: OutputFormat?, accept: String?, source: OutputFormat?, fallback: OutputFormat,
        available: Set<OutputFormat>
    ) -> Choice {
        if let requested { return Choice(format: requested, dependsOnAccept: false) }
        if let preferred = preferred(accept: accept, available: available) {
            return Choice(format: preferred, dependsOnAccept: true)
        }
        let own = source.flatMap { available.contains($0) ? $0 : nil } ?? fallback
        return Choice(format: own, dependsOnAccept: true)
    }

    /// AVIF, then WebP, when `accept` names them (not through a wildcard) with a non-zero quality and an encoder is
    /// available; `nil` when neither is: then the source's own format is used. Known before the source is, so it
    /// can key a result.
    public static func preferred(accept: String?, available: Set<OutputFormat>) -> OutputFormat? {
        let accepted = acceptedImageTypes(accept)
        return [OutputFormat.avif, .webp].first { available.contains($0) && accepted.contains($0.mimeType) }
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
