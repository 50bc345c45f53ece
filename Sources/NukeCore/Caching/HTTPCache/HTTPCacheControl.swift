/// The directives of a response's `Cache-Control` header that a private cache acts on (RFC 9111 §5.2.2, and
/// RFC 5861's `stale-while-revalidate` / `stale-if-error`).
///
/// Parsing is lenient where the RFC allows it and conservative where a value is unusable: names are
/// case-insensitive, values may be quoted, unknown directives are ignored, the first of duplicated directives
/// wins, and a `max-age` that isn't a non-negative integer makes the response stale (`max-age=0`). Values above
/// 2³¹ seconds are clamped to 2³¹, as the RFC says.
public struct HTTPCacheControl: Sendable, Hashable {
    /// `max-age=N`: fresh for N seconds after it was generated.
    public var maxAge: Int?
    /// `no-cache`: must be revalidated before every use.
    public var noCache = false
    /// `no-store`: must not be stored.
    public var noStore = false
    /// `must-revalidate`: once stale, must not be used without revalidation (not even on errors).
    public var mustRevalidate = false
    /// `immutable`: won't change while fresh, so it is never revalidated early.
    public var immutable = false
    /// `must-understand`: store the response only if its status is understood, and then despite `no-store`.
    public var mustUnderstand = false
    /// `public`: the response may be stored and given a heuristic lifetime whatever its status (RFC 9111 §3,
    /// §4.2.2).
    public var isPublic = false
    /// `stale-while-revalidate=N`: for N seconds after it goes stale, it may be served while revalidating in the
    /// background.
    public var staleWhileRevalidate: Int?
    /// `stale-if-error=N`: for N seconds after it goes stale, it may be served when revalidation fails.
    public var staleIfError: Int?

    /// No directives.
    public init() {}

    /// The directives of a `Cache-Control` header value (several header lines joined with commas).
    public init(_ headerValue: String) {
        var seen = Set<String>()
        for directive in Self.split(headerValue) {
            let (name, value) = directive
            guard seen.insert(name).inserted else { continue }
            switch name {
            case "max-age": maxAge = Self.seconds(value) ?? 0
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            case "immutable": immutable = true
            case "must-understand": mustUnderstand = true
            case "public": isPublic = true
            case "stale-while-revalidate": staleWhileRevalidate = Self.seconds(value)
            case "stale-if-error": staleIfError = Self.seconds(value)
            default: break
            }
        }
    }

    /// Delta-seconds (RFC 9111 §1.2.2): digits only, clamped to 2³¹.
    private static func seconds(_ value: String?) -> Int? {
        guard let value, !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return value.utf8.count > 10 ? 2_147_483_648 : min(Int(value) ?? 2_147_483_648, 2_147_483_648)
    }

    /// The `(name, value)` pairs of a directive list: names lowercased, quoted values unquoted.
    private static func split(_ text: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var current = ""
        var isQuoted = false
        var isEscaped = false
        func flush() {
            let trimmed = current.trimmingWhitespace
            current = ""
            guard !trimmed.isEmpty else { return }
            guard let equals = trimmed.firstIndex(of: "=") else {
                result.append((trimmed.lowercased(), nil))
                return
            }
            let name = trimmed[..<equals].trimmingWhitespace.lowercased()
            var value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                var unquoted = ""
                var isPairStart = false
                for character in value.dropFirst().dropLast() {
                    if character == "\\" && !isPairStart {
                        isPairStart = true
                        continue
                    }
                    isPairStart = false
                    unquoted.append(character)
                }
                value = unquoted
            }
            result.append((name, value))
        }
        for character in text {
            if isEscaped {
                isEscaped = false
            } else if character == "\\" && isQuoted {
                isEscaped = true
            } else if character == "\"" {
                isQuoted.toggle()
            } else if character == "," && !isQuoted {
                flush()
                continue
            }
            current.append(character)
        }
        flush()
        return result
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
