public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// What a private HTTP cache (RFC 9111) keeps of a response to decide later whether its stored body may be used:
/// the validators (`ETag`, `Last-Modified`), the freshness inputs (`Date`, `Expires`, `Age`, `Cache-Control`), the
/// status, and when the request was sent and the response received.
///
/// The pipeline stores it with each original it writes to the disk cache when
/// ``ImagePipeline/Configuration/httpCachePolicy`` is ``ImagePipeline/HTTPCachePolicy/followHeaders``, and reads it
/// back to choose a ``HTTPCacheDecision``. Read it for a request with
/// ``ImagePipeline/Cache/cachedHTTPMetadata(for:)``.
///
/// The rules, from RFC 9111 §4.2:
/// - **Freshness lifetime:** `max-age`; else `Expires − Date` (an invalid `Expires`, such as `0`, is in the past);
///   else, heuristically (for ``isHeuristicallyCacheable(statusCode:)`` or with `public`), 10 % of
///   `Date − Last-Modified`, at most a day; else zero.
/// - **Age:** the larger of `Age` (its first value, for a list; plus the time the request took) and
///   `responseTime − Date`, plus the time since the response was received.
/// - Fresh while age < lifetime.
/// - **Vary:** the entry answers only a request with the same values of the headers its response varies on
///   (``matchesVary(of:)``); one variant is stored per URL, as browsers do.
public struct HTTPCacheMetadata: Sendable, Hashable {
    /// The response's status code (see ``isStorable`` for the ones stored).
    public var statusCode: Int
    /// The `ETag` validator, as sent (sent back in `If-None-Match`).
    public var etag: String?
    /// The `Last-Modified` validator, as sent (sent back in `If-Modified-Since`).
    public var lastModified: String?
    /// The `Date` header: when the origin generated the response.
    public var date: Date?
    /// The `Expires` header; `Date.distantPast` for an invalid one.
    public var expires: Date?
    /// The `Age` header, in seconds.
    public var age: TimeInterval?
    /// The `Cache-Control` directives.
    public var cacheControl: HTTPCacheControl
    /// The request headers the response varies on (its `Vary` list, lowercased, in order); empty without `Vary`.
    public var varyingHeaderNames: [String] = []
    /// The values the request that produced the response had for ``varyingHeaderNames``; a name the request didn't
    /// send has no value here.
    public var varyingHeaderValues: [String: String] = [:]
    /// When the request that produced the response was sent.
    public var requestTime: Date
    /// When the response was received.
    public var responseTime: Date

    /// The largest heuristic freshness lifetime: a day.
    public static let maximumHeuristicLifetime: TimeInterval = 86_400

    /// Metadata with the given fields.
    public init(
        statusCode: Int = 200, etag: String? = nil, lastModified: String? = nil, date: Date? = nil,
        expires: Date? = nil, age: TimeInterval? = nil, cacheControl: HTTPCacheControl = HTTPCacheControl(),
        requestTime: Date, responseTime: Date
    ) {
        self.statusCode = statusCode
        self.etag = etag
        self.lastModified = lastModified
        self.date = date
        self.expires = expires
        self.age = age
        self.cacheControl = cacheControl
        self.requestTime = requestTime
        self.responseTime = responseTime
    }

    /// The metadata of `response`, received at `responseTime` for a request sent at `requestTime`.
    public init(response: HTTPURLResponse, requestTime: Date, responseTime: Date) {
        self.init(statusCode: response.statusCode, requestTime: requestTime, responseTime: responseTime)
        apply(headers: response)
    }

    /// Takes the caching headers `response` carries, replacing the stored ones (each only if present, except
    /// `Cache-Control`, `Expires` and `Age`, which describe the response as a whole).
    private mutating func apply(headers response: HTTPURLResponse) {
        func header(_ name: String) -> String? {
            response.value(forHTTPHeaderField: name)?.trimmingWhitespace.nonEmpty
        }
        if let etag = header("ETag") { self.etag = etag }
        if let lastModified = header("Last-Modified") { self.lastModified = lastModified }
        if let date = header("Date").flatMap(HTTPDate.parse) { self.date = Date(timeIntervalSince1970: date) }
        cacheControl = HTTPCacheControl(header("Cache-Control") ?? "")
        expires = header("Expires").map { HTTPDate.parse($0).map(Date.init(timeIntervalSince1970:)) ?? .distantPast }
        // A list (`Age: 7200, 0`, or two `Age` lines, which arrive joined) counts by its first value (RFC 9111 §5.1).
        age = header("Age").flatMap { list in
            let value = list.prefix { $0 != "," }.trimmingWhitespace
            return !value.isEmpty && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                ? min(Double(value) ?? 2_147_483_648, 2_147_483_648) : nil
        }
    }

    /// The metadata after a `304 Not Modified` answered a conditional request for the stored response
    /// (RFC 9111 §4.3.4): the stored headers updated with the ones the `304` carries, and its times.
    public func updated(with notModified: HTTPURLResponse, requestTime: Date, responseTime: Date) -> HTTPCacheMetadata {
        var updated = self
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        let hasFreshness = ["Cache-Control", "Expires", "Date", "Age"].contains {
            notModified.value(forHTTPHeaderField: $0) != nil
        }
        guard hasFreshness else {
            // A bare 304 confirms the stored response; its age starts again from now.
            updated.date = nil
            updated.age = nil
            return updated
        }
        let cacheControl = self.cacheControl
        let expires = self.expires
        updated.date = nil
        updated.age = nil
        updated.apply(headers: notModified)
        if notModified.value(forHTTPHeaderField: "Cache-Control") == nil { updated.cacheControl = cacheControl }
        if notModified.value(forHTTPHeaderField: "Expires") == nil { updated.expires = expires }
        return updated
    }

    /// Whether this metadata, from a `304` for the stored response `old`, must be stored: it changed a validator or
    /// the directives, or gives the response a freshness lifetime or a stale window (`stale-while-revalidate`,
    /// `stale-if-error`) that the new times restart. Otherwise the next request decides as it would have.
    func needsStoring(replacing old: HTTPCacheMetadata) -> Bool {
        etag != old.etag || lastModified != old.lastModified || cacheControl != old.cacheControl
            || expires != old.expires || freshnessLifetime > 0 || cacheControl.staleWhileRevalidate != nil
            || cacheControl.staleIfError != nil
    }

    // MARK: Vary

    /// Records the request headers `response` varies on (`Vary`, RFC 9111 §4.1) with their values in `request`,
    /// the request that produced it. `Vary: *` is not recorded: such a response is never stored.
    public mutating func recordVary(of response: HTTPURLResponse, request: URLRequest?) {
        let names = (response.value(forHTTPHeaderField: "Vary") ?? "").split(separator: ",")
            .map { $0.trimmingWhitespace.lowercased() }.filter { !$0.isEmpty && $0 != "*" }
        var seen = Set<String>()
        varyingHeaderNames = names.filter { seen.insert($0).inserted }
        varyingHeaderValues = [:]
        for name in varyingHeaderNames {
            if let value = request?.value(forHTTPHeaderField: name) {
                varyingHeaderValues[name] = Self.normalized(value)
            }
        }
    }

    /// Whether the stored response may answer `request`: it sends the same value for each header the response
    /// varies on, and omits the ones its original request omitted (RFC 9111 §4.1). Values compare as lists: the
    /// spaces around their commas don't count, so `1, 2`, `1,2` and two lines `1` and `2` match. One variant is
    /// stored per URL: a request that doesn't match loads, and its response replaces the stored one.
    public func matchesVary(of request: URLRequest?) -> Bool {
        varyingHeaderNames.allSatisfy { name in
            request?.value(forHTTPHeaderField: name).map(Self.normalized) == varyingHeaderValues[name]
        }
    }

    /// A header value as a list: its elements trimmed, joined by `,`.
    private static func normalized(_ value: String) -> String {
        value.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmingWhitespace).joined(separator: ",")
    }

    // MARK: Freshness

    /// Whether a cache may store a response with this status without explicit freshness and give it a heuristic
    /// lifetime (RFC 9110 §15.1):
    /// `200`, `203`, `204`, `206`, `300`, `301`, `308`, `404`, `405`, `410`, `414` and `501`.
    public static func isHeuristicallyCacheable(statusCode: Int) -> Bool {
        switch statusCode {
        case 200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501: true
        default: false
        }
    }

    /// Whether the response may be stored (RFC 9111 §3): a final status but `206` (the pipeline stores whole bodies)
    /// and `304` (which only updates a stored response), that is heuristically cacheable
    /// (``isHeuristicallyCacheable(statusCode:)``), marked `public`, or has explicit freshness (`max-age`,
    /// `Expires`); never with `no-store`, unless `must-understand` accompanies it and the status is one whose
    /// caching the pipeline implements (the heuristically cacheable ones); with `must-understand`, only those.
    ///
    /// A success status is stored with its body. A status outside 2xx, which loaders report as an error, is stored
    /// without one (negative caching): while fresh, the request fails with ``CachedHTTPStatusError`` and no load.
    public var isStorable: Bool {
        guard (200..<600).contains(statusCode), statusCode != 206, statusCode != 304 else { return false }
        let isUnderstood = Self.isHeuristicallyCacheable(statusCode: statusCode)
        if cacheControl.mustUnderstand {
            return isUnderstood
        }
        guard !cacheControl.noStore else { return false }
        return isUnderstood || cacheControl.isPublic || cacheControl.maxAge != nil || expires != nil
    }

    /// `true` when the response has a validator, so it can be revalidated with a conditional request.
    public var hasValidator: Bool {
        etag != nil || lastModified != nil
    }

    /// How long the response is fresh after it was generated, in seconds (RFC 9111 §4.2.1–4.2.2).
    public var freshnessLifetime: TimeInterval {
        if let maxAge = cacheControl.maxAge { return TimeInterval(maxAge) }
        let generated = date ?? responseTime
        if let expires { return max(0, expires.timeIntervalSince(generated)) }
        if Self.isHeuristicallyCacheable(statusCode: statusCode) || cacheControl.isPublic,
            let lastModified = lastModified.flatMap(HTTPDate.parse)
        {
            let interval = generated.timeIntervalSince1970 - lastModified
            return min(max(0, interval / 10), Self.maximumHeuristicLifetime)
        }
        return 0
    }

    /// The age of the response at `now`, in seconds (RFC 9111 §4.2.3).
    public func currentAge(at now: Date) -> TimeInterval {
        let apparentAge = max(0, date.map { responseTime.timeIntervalSince($0) } ?? 0)
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAge = (age ?? 0) + responseDelay
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        return max(apparentAge, correctedAge) + residentTime
    }

    /// `true` while the response is fresh at `now`.
    public func isFresh(at now: Date) -> Bool {
        freshnessLifetime > currentAge(at: now)
    }

    /// How long the response has been stale at `now`, in seconds (zero or less while fresh).
    public func staleness(at now: Date) -> TimeInterval {
        currentAge(at: now) - freshnessLifetime
    }

    /// What a private cache does with the stored response at `now`.
    public func decision(at now: Date) -> HTTPCacheDecision {
        let revalidation: HTTPCacheDecision = hasValidator ? .revalidate : .reload
        if cacheControl.noCache { return revalidation }
        let staleness = self.staleness(at: now)
        if staleness < 0 { return .fresh }
        if !cacheControl.mustRevalidate, let window = cacheControl.staleWhileRevalidate,
            staleness < TimeInterval(window)
        {
            return .staleWhileRevalidate
        }
        return revalidation
    }

    /// Whether the stale response may be served at `now` because its revalidation failed (a network error or a
    /// 5xx): within `stale-if-error`, never with `must-revalidate` or `no-cache`.
    public func allowsStaleOnError(at now: Date) -> Bool {
        guard !cacheControl.mustRevalidate, !cacheControl.noCache, let window = cacheControl.staleIfError else {
            return false
        }
        return staleness(at: now) < TimeInterval(window)
    }

    /// The headers of a conditional request for the stored response: `If-None-Match` with the `ETag`,
    /// `If-Modified-Since` with `Last-Modified`.
    public var conditionalHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }
}

/// What a private HTTP cache does with a stored response when a request for it arrives; see
/// ``HTTPCacheMetadata/decision(at:)``.
public enum HTTPCacheDecision: Sendable, Hashable, CustomStringConvertible {
    /// Fresh: served with no request.
    case fresh
    /// Stale within `stale-while-revalidate`: served at once, revalidated in the background.
    case staleWhileRevalidate
    /// Stale (or `no-cache`) with a validator: a conditional request first; `304` serves the stored body.
    case revalidate
    /// Stale without a validator: loaded again.
    case reload

    public var description: String {
        switch self {
        case .fresh: "fresh"
        case .staleWhileRevalidate: "stale, served while revalidating"
        case .revalidate: "stale, revalidate"
        case .reload: "stale, reload"
        }
    }
}

extension String {
    /// `nil` for an empty string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
