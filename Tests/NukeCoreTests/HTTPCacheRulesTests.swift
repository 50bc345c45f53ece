import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The rules of the HTTP cache as values: dates, `Cache-Control`, freshness and age (RFC 9111 §4.2), the
/// decision, a 304's update, and the stored entry format.
@Suite struct HTTPDateTests {
    @Test func parsesTheThreeFormatsOfRFC9110() {
        let expected = 784_111_777.0  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("sun, 06 nov 1994 08:49:37 gmt") == expected)
    }

    @Test func twoDigitYearsAreAtMostFiftyYearsAhead() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let thisYear = calendar.component(.year, from: Date())
        for (ahead, expected) in [(0, thisYear), (20, thisYear + 20), (50, thisYear + 50), (51, thisYear - 49)] {
            let digits = String(format: "%02d", (thisYear + ahead) % 100)
            let parsed = try #require(HTTPDate.parse("Monday, 01-Jan-\(digits) 00:00:00 GMT"))
            #expect(calendar.component(.year, from: Date(timeIntervalSince1970: parsed)) == expected, "\(digits)")
        }
    }

    @Test func rejectsWhatIsNoDate() {
        for text in [
            "", "0", "-1", "Sun, 06 Nov 1994 08:49:37", "Sun, 31 Feb 2024 00:00:00 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "tomorrow",
            "Sun, 99999999999999999999 Nov 1994 08:49:37 GMT",
        ] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func fieldsSeparatedByMoreThanOneSpaceAreNoDate() {
        // Given dates whose fields are padded with extra spaces or tabs (cache-tests'
        // freshness-expires-invalid-multiple-spaces), Then none parses: an Expires like that is invalid, so stale
        for text in [
            "Sun, 06  Nov 1994 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994  08:49:37 GMT",
            "Sun, 06 Nov 1994\t08:49:37 GMT", "Sunday,  06-Nov-94 08:49:37 GMT", "Sun Nov   6 08:49:37 1994",
            "Sun Nov 16  08:49:37 1994",
        ] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
        // While asctime's padded one-digit day still parses
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
    }

    @Test func formatsIMFFixdateAndRoundTrips() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        for seconds in stride(from: 0.0, to: 4_102_444_800, by: 86_399 * 37.3) {
            let whole = seconds.rounded(.down)
            #expect(HTTPDate.parse(HTTPDate.format(whole)) == whole)
        }
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == 1_709_208_000)
    }
}

@Suite struct HTTPCacheControlTests {
    @Test func readsTheDirectivesAPrivateCacheUses() {
        let control = HTTPCacheControl(
            "public, MAX-AGE=\"60\", no-cache, no-store, must-revalidate, immutable, stale-while-revalidate=30, "
                + "stale-if-error=86400, private=\"x, y\", foo=bar, Must-Understand")
        #expect(control.maxAge == 60)
        #expect(control.mustUnderstand && control.isPublic)
        #expect(!HTTPCacheControl("max-age=60").isPublic)
        #expect(control.noCache && control.noStore && control.mustRevalidate && control.immutable)
        #expect(control.staleWhileRevalidate == 30)
        #expect(control.staleIfError == 86_400)
    }

    @Test func invalidOrDuplicatedValuesAreConservative() {
        #expect(HTTPCacheControl("max-age=abc").maxAge == 0)  // Unusable: stale.
        #expect(HTTPCacheControl("max-age=-5").maxAge == 0)
        #expect(HTTPCacheControl("max-age").maxAge == 0)
        #expect(HTTPCacheControl("max-age=10, max-age=99999").maxAge == 10)  // The first wins.
        #expect(HTTPCacheControl("max-age=99999999999999999999").maxAge == 2_147_483_648)
        #expect(HTTPCacheControl("stale-if-error=x").staleIfError == nil)
        #expect(HTTPCacheControl("") == HTTPCacheControl())
        #expect(HTTPCacheControl(" , ,, ") == HTTPCacheControl())
        #expect(HTTPCacheControl("no-cache=\"Set-Cookie\"").noCache)
    }

    @Test func quotedCommasDoNotSplitDirectives() {
        let control = HTTPCacheControl("private=\"a, max-age=5\", max-age=7")
        #expect(control.maxAge == 7)
    }
}

@Suite struct HTTPCacheMetadataTests {
    private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    private func metadata(_ headers: [String: String], requestDelay: TimeInterval = 0) -> HTTPCacheMetadata {
        let url = URL(string: "https://example.com/a.png")!
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)!
        return HTTPCacheMetadata(
            response: response, requestTime: t0.addingTimeInterval(-requestDelay), responseTime: t0)
    }

    private func date(_ offset: TimeInterval) -> String {
        HTTPDate.format(t0.timeIntervalSince1970 + offset)
    }

    @Test func maxAgeGivesTheLifetime() {
        let stored = metadata(["Cache-Control": "max-age=60", "Date": date(0)])
        #expect(stored.freshnessLifetime == 60)
        #expect(stored.decision(at: t0.addingTimeInterval(59)) == .fresh)
        #expect(stored.decision(at: t0.addingTimeInterval(60)) == .reload)  // No validator.
    }

    @Test func maxAgeWinsOverExpires() {
        let stored = metadata(["Cache-Control": "max-age=10", "Expires": date(3600), "Date": date(0)])
        #expect(stored.freshnessLifetime == 10)
    }

    @Test func expiresMinusDate() {
        // The origin's clock is an hour ahead of ours: Expires − Date still gives 100 s.
        let stored = metadata(["Expires": date(3700), "Date": date(3600)])
        #expect(stored.freshnessLifetime == 100)
        #expect(metadata(["Expires": "0", "Date": date(0)]).freshnessLifetime == 0)  // Invalid: in the past.
        #expect(metadata(["Expires": date(-10), "Date": date(0)]).freshnessLifetime == 0)
    }

    @Test func heuristicIsATenthOfTheTimeSinceLastModifiedCappedAtADay() {
        let recent = metadata(["Last-Modified": date(-1000), "Date": date(0)])
        #expect(recent.freshnessLifetime == 100)
        let old = metadata(["Last-Modified": date(-86_400 * 365), "Date": date(0)])
        #expect(old.freshnessLifetime == HTTPCacheMetadata.maximumHeuristicLifetime)
        #expect(metadata([:]).freshnessLifetime == 0)
        #expect(metadata(["Last-Modified": "garbage"]).freshnessLifetime == 0)
    }

    @Test func theHeuristicAppliesToHeuristicallyCacheableStatusesAndPublicResponsesOnly() {
        func lifetime(_ status: Int, _ headers: [String: String]) -> TimeInterval {
            var stored = metadata(headers)
            stored.statusCode = status
            return stored.freshnessLifetime
        }
        let modified = ["Last-Modified": date(-1000), "Date": date(0)]
        #expect(lifetime(404, modified) == 100)
        #expect(lifetime(301, modified) == 100)
        #expect(lifetime(500, modified) == 0)
        #expect(lifetime(299, modified) == 0)
        #expect(lifetime(599, modified.merging(["Cache-Control": "public"]) { $1 }) == 100)
        #expect(HTTPCacheMetadata.isHeuristicallyCacheable(statusCode: 410))
        #expect(!HTTPCacheMetadata.isHeuristicallyCacheable(statusCode: 403))
    }

    @Test func ageCountsTheAgeHeaderTheRequestDelayAndTheTimeStored() {
        let stored = metadata(["Cache-Control": "max-age=100", "Age": "30", "Date": date(0)], requestDelay: 2)
        #expect(stored.currentAge(at: t0) == 32)
        #expect(stored.currentAge(at: t0.addingTimeInterval(10)) == 42)
        #expect(stored.isFresh(at: t0.addingTimeInterval(67)))
        #expect(!stored.isFresh(at: t0.addingTimeInterval(68)))
        // A Date in the past (a response that waited somewhere) makes it older.
        let late = metadata(["Cache-Control": "max-age=100", "Date": date(-50)])
        #expect(late.currentAge(at: t0) == 50)
        // A Date in the future (the origin's clock ahead) doesn't make it younger than zero.
        let ahead = metadata(["Cache-Control": "max-age=100", "Date": date(500)])
        #expect(ahead.currentAge(at: t0) == 0)
    }

    @Test func anAgeListCountsByItsFirstValue() {
        // Given Age lists, as one line or as two lines joined (cache-tests' age-parse-suffix and -twoline)
        for age in ["7200, 0", "7200,0", "7200 , 0"] {
            // Then the first value is the age: the response is stale at once
            let stored = metadata(["Cache-Control": "max-age=3600", "Age": age, "Date": date(0)])
            #expect(stored.age == 7200, "\(age)")
            #expect(stored.decision(at: t0) == .reload, "\(age)")
        }
        #expect(metadata(["Age": "0, 7200"]).age == 0)
        // And a first value that is no number makes the header invalid, not the next value
        #expect(metadata(["Age": "abc, 7200"]).age == nil)
        #expect(metadata(["Age": ", 7200"]).age == nil)
    }

    @Test func aVariedResponseAnswersOnlyTheSameValuesOfItsVaryingHeaders() {
        // Given a response that varies on Foo and Bar (twice, and in another case), to a request with Foo: 1 only
        let url = URL(string: "https://example.com/a.png")!
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Vary": "Foo, bar ,FOO"])!
        var original = URLRequest(url: url)
        original.setValue(" 1 ", forHTTPHeaderField: "Foo")
        var stored = metadata([:])
        stored.recordVary(of: response, request: original)
        #expect(stored.varyingHeaderNames == ["foo", "bar"])
        #expect(stored.varyingHeaderValues == ["foo": "1"])

        func request(_ headers: [String: String]) -> URLRequest {
            var request = URLRequest(url: url)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            return request
        }
        // Then it answers the same values (surrounding spaces aside, names in any case), Bar still omitted
        #expect(stored.matchesVary(of: request(["Foo": "1"])))
        #expect(stored.matchesVary(of: request(["foo": "1", "Baz": "2"])))
        // And nothing else: another value, Foo omitted, or Bar sent
        #expect(!stored.matchesVary(of: request(["Foo": "2"])))
        #expect(!stored.matchesVary(of: request([:])))
        #expect(!stored.matchesVary(of: nil))
        #expect(!stored.matchesVary(of: request(["Foo": "1", "Bar": "1"])))
        // And list values compare without the spaces around their commas
        var listed = metadata([:])
        listed.recordVary(
            of: HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: ["Vary": "Foo"])!,
            request: request(["Foo": "1, 2"]))
        #expect(listed.matchesVary(of: request(["Foo": " 1 ,2 "])))
        #expect(!listed.matchesVary(of: request(["Foo": "1 2"])))
        // And a response without Vary answers every request
        #expect(metadata([:]).matchesVary(of: request(["Foo": "2"])))
    }

    @Test func decisions() {
        let now = t0.addingTimeInterval(100)
        let withETag = ["ETag": "\"v1\"", "Date": date(0)]
        #expect(metadata(withETag.merging(["Cache-Control": "max-age=10"]) { $1 }).decision(at: now) == .revalidate)
        #expect(
            metadata(withETag.merging(["Cache-Control": "max-age=1000, no-cache"]) { $1 }).decision(at: t0)
                == .revalidate)
        #expect(metadata(["Cache-Control": "no-cache"]).decision(at: t0) == .reload)
        #expect(metadata(withETag.merging(["Cache-Control": "max-age=0"]) { $1 }).decision(at: t0) == .revalidate)
        #expect(
            metadata(withETag.merging(["Cache-Control": "max-age=1000, immutable"]) { $1 }).decision(at: now) == .fresh)
        let swr = metadata(withETag.merging(["Cache-Control": "max-age=10, stale-while-revalidate=200"]) { $1 })
        #expect(swr.decision(at: now) == .staleWhileRevalidate)
        #expect(swr.decision(at: t0.addingTimeInterval(211)) == .revalidate)
        let strict = metadata(
            withETag.merging(["Cache-Control": "max-age=10, stale-while-revalidate=200, must-revalidate"]) { $1 })
        #expect(strict.decision(at: now) == .revalidate)
    }

    @Test func staleIfErrorHasAWindowAndYieldsToMustRevalidate() {
        let lenient = metadata(["Cache-Control": "max-age=10, stale-if-error=100", "Date": date(0)])
        #expect(lenient.allowsStaleOnError(at: t0.addingTimeInterval(109)))
        #expect(!lenient.allowsStaleOnError(at: t0.addingTimeInterval(111)))
        let strict = metadata(["Cache-Control": "max-age=10, stale-if-error=100, must-revalidate", "Date": date(0)])
        #expect(!strict.allowsStaleOnError(at: t0.addingTimeInterval(50)))
        #expect(!metadata(["Cache-Control": "max-age=10"]).allowsStaleOnError(at: t0.addingTimeInterval(50)))
    }

    @Test func conditionalHeadersCarryTheValidatorsAsSent() {
        let stored = metadata(["ETag": "W/\"abc\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(
            stored.conditionalHeaders == [
                "If-None-Match": "W/\"abc\"", "If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT",
            ])
        #expect(metadata([:]).conditionalHeaders.isEmpty)
        #expect(!metadata([:]).hasValidator)
    }

    @Test func a304UpdatesTheStoredFreshness() {
        let stored = metadata(["ETag": "\"v1\"", "Cache-Control": "max-age=10", "Date": date(0)])
        let later = t0.addingTimeInterval(1000)
        #expect(stored.decision(at: later) == .revalidate)
        let url = URL(string: "https://example.com/a.png")!
        let notModified = HTTPURLResponse(
            url: url, statusCode: 304, httpVersion: "HTTP/1.1",
            headerFields: ["Date": date(1000), "Cache-Control": "max-age=60"])!
        let updated = stored.updated(with: notModified, requestTime: later, responseTime: later)
        #expect(updated.etag == "\"v1\"")  // Kept: the 304 didn't send one.
        #expect(updated.cacheControl.maxAge == 60)
        #expect(updated.decision(at: later.addingTimeInterval(59)) == .fresh)
        #expect(updated.decision(at: later.addingTimeInterval(61)) == .revalidate)
        // A bare 304 confirms the stored response: fresh again for its old lifetime.
        let bare = HTTPURLResponse(url: url, statusCode: 304, httpVersion: "HTTP/1.1", headerFields: [:])!
        let confirmed = stored.updated(with: bare, requestTime: later, responseTime: later)
        #expect(confirmed.decision(at: later.addingTimeInterval(5)) == .fresh)
    }

    @Test func noStoreAndOtherStatusesAreNotStorable() {
        #expect(!metadata(["Cache-Control": "no-store"]).isStorable)
        #expect(metadata(["Cache-Control": "max-age=5"]).isStorable)
        var other = metadata([:])
        other.statusCode = 206
        #expect(!other.isStorable)
    }

    @Test func understoodAndExplicitlyFreshSuccessStatusesAreStorable() {
        func storable(_ status: Int, _ headers: [String: String]) -> Bool {
            var stored = metadata(headers)
            stored.statusCode = status
            return stored.isStorable
        }
        // Given 203, understood and heuristically cacheable like 200 (cache-tests' heuristic-203-cached)
        #expect(storable(203, ["Last-Modified": date(-86_400)]))
        // And other 2xx (but 206), storable with explicit freshness only (status-299-fresh)
        #expect(storable(299, ["Cache-Control": "max-age=100"]))
        #expect(storable(201, ["Expires": date(100)]))
        #expect(!storable(299, ["Last-Modified": date(-86_400)]))
        #expect(!storable(206, ["Cache-Control": "max-age=100"]))
        // And statuses outside 2xx (stored without a body): heuristically cacheable ones by Last-Modified too
        // (heuristic-404-cached), others with explicit freshness (status-500-fresh) or `public`
        // (heuristic-599-cached) only
        #expect(storable(404, ["Cache-Control": "max-age=100"]))
        #expect(storable(410, ["Last-Modified": date(-86_400)]))
        #expect(storable(301, ["Cache-Control": "max-age=100"]))
        #expect(storable(500, ["Expires": date(100)]))
        #expect(!storable(500, ["Last-Modified": date(-86_400)]))
        #expect(storable(599, ["Last-Modified": date(-86_400), "Cache-Control": "public"]))
        #expect(!storable(404, ["Cache-Control": "max-age=100, no-store"]))
        #expect(!storable(304, ["Cache-Control": "max-age=100"]))
        #expect(!storable(101, ["Cache-Control": "max-age=100"]))
        // And must-understand: an understood status despite no-store (status-200-must-understand), else nothing
        #expect(storable(200, ["Cache-Control": "max-age=3600, no-store, must-understand"]))
        #expect(!storable(299, ["Cache-Control": "max-age=3600, must-understand"]))
        #expect(!storable(203, ["Cache-Control": "no-store"]))
    }
}

@Suite struct HTTPCacheEntryTests {
    private let metadata = HTTPCacheMetadata(
        statusCode: 200, etag: "\"é-v1\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT",
        date: Date(timeIntervalSince1970: 1_700_000_000), expires: .distantPast, age: 12,
        cacheControl: HTTPCacheControl(
            "max-age=60, stale-while-revalidate=5, stale-if-error=7, no-cache, immutable, must-understand, public"),
        requestTime: Date(timeIntervalSince1970: 1_700_000_001.25),
        responseTime: Date(timeIntervalSince1970: 1_700_000_002.5))

    @Test func roundTrips() {
        let body = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        for entry in [HTTPCacheEntry.original(metadata, body: body), .derived(metadata, body: body)] {
            #expect(HTTPCacheEntry(decoding: entry.encoded()) == entry)
        }
        var sparse = HTTPCacheMetadata(
            requestTime: Date(timeIntervalSince1970: 5), responseTime: Date(timeIntervalSince1970: 6))
        sparse.etag = ""
        #expect(
            HTTPCacheEntry(decoding: HTTPCacheEntry.original(sparse, body: Data()).encoded())
                == .original(sparse, body: Data()))
    }

    @Test func aStoredErrorStatusRoundTripsWithoutABody() {
        // Given a 404's metadata, stored as a failure
        var notFound = metadata
        notFound.statusCode = 404
        let encoded = HTTPCacheEntry.failure(notFound).encoded()

        // Then it reads back as a failure with its metadata, and no body for any reader to serve
        let decoded = HTTPCacheEntry(decoding: encoded)
        #expect(decoded == .failure(notFound))
        #expect(decoded.body == nil)
        #expect(decoded.metadata?.statusCode == 404)

        // And a failure trailer behind body bytes is damaged, not a failure or an image
        let length = withUnsafeBytes(of: UInt64(3).littleEndian) { Data($0) }
        let behindBytes = Data([1, 2, 3]) + encoded.dropLast(16) + length + HTTPCacheEntry.magic
        #expect(HTTPCacheEntry(decoding: behindBytes) == .damaged)
    }

    @Test func theVaryingHeadersRoundTripAndFormatOneIsStillRead() throws {
        // Given metadata that varies on two headers, one of them absent from the request
        var varied = metadata
        varied.varyingHeaderNames = ["accept", "x-absent"]
        varied.varyingHeaderValues = ["accept": "image/avif,image/webp"]
        let body = Data("body".utf8)

        // Then they survive the round trip, absent value included
        #expect(
            HTTPCacheEntry(decoding: HTTPCacheEntry.original(varied, body: body).encoded())
                == .original(varied, body: body))

        // And an entry of format 1 (before Vary was stored: no count before the checksum) still reads, unvaried
        var formatOne = Data(HTTPCacheEntry.original(metadata, body: body).encoded())
        let trailerStart = body.count
        formatOne[trailerStart] = 1
        let checksumStart = formatOne.count - 8 - 8 - 4
        formatOne.removeSubrange((checksumStart - 2)..<checksumStart)  // The empty count.
        var hash: UInt32 = 2_166_136_261
        for byte in formatOne[trailerStart..<(checksumStart - 2)] { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        withUnsafeBytes(of: hash.littleEndian) {
            formatOne.replaceSubrange((checksumStart - 2)..<(checksumStart + 2), with: $0)
        }
        #expect(HTTPCacheEntry(decoding: formatOne) == .original(metadata, body: body))
    }

    @Test func aValidatorTooLongToStoreIsDroppedNotCut() {
        // 65,535 bytes of two-byte characters: a cut at the field's size would split one
        var long = metadata
        long.etag = "\"" + String(repeating: "é", count: 32_767) + "\""
        var expected = long
        expected.etag = nil

        let decoded = HTTPCacheEntry(decoding: HTTPCacheEntry.original(long, body: Data([1])).encoded())

        #expect(decoded == .original(expected, body: Data([1])))
    }

    @Test func bytesWithoutTheMagicArePlainEntries() {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        #expect(HTTPCacheEntry(decoding: png) == .plain(png))
        #expect(HTTPCacheEntry.plain(png).encoded() == png)
        #expect(HTTPCacheEntry(decoding: Data("NukeHTTP".utf8)) == .plain(Data("NukeHTTP".utf8)))
        #expect(HTTPCacheEntry(decoding: Data()) == .plain(Data()))
    }

    @Test func theBodyIsHandedOnWithoutACopy() throws {
        let body = Data(repeating: 0xCD, count: 100_000)
        let encoded = HTTPCacheEntry.original(metadata, body: body).encoded()
        let decoded = try #require(HTTPCacheEntry(decoding: encoded).body)
        #expect(decoded == body)
        #expect(decoded.startIndex == encoded.startIndex)
        let shared = decoded.withUnsafeBytes { body in
            encoded.withUnsafeBytes { entry in body.baseAddress == entry.baseAddress }
        }
        #expect(shared)
    }

    @Test func everyTruncationAndEveryTrailerFlipIsCaught() {
        let body = Data(repeating: 0xAB, count: 64)
        let encoded = HTTPCacheEntry.original(metadata, body: body).encoded()
        // Cut anywhere, an entry loses its magic (a plain entry, as a cache that returned partial data would
        // make it) or its trailer fails to parse: never other metadata.
        for length in 0..<encoded.count {
            let decoded = HTTPCacheEntry(decoding: encoded.prefix(length))
            #expect(decoded.metadata == nil, "truncated to \(length)")
        }
        var extended = Data([0])
        extended.append(encoded)
        #expect(HTTPCacheEntry(decoding: extended) == .damaged)
        // Any single-bit flip in the trailer is caught by the checksum, the lengths or the magic.
        for index in body.count..<encoded.count {
            for bit in 0..<8 {
                var damaged = encoded
                damaged[index] ^= 1 << bit
                let decoded = HTTPCacheEntry(decoding: damaged)
                #expect(decoded.metadata == nil, "flip at \(index) bit \(bit) went unnoticed")
            }
        }
    }

    @Test func randomBytesBeforeTheMagicNeverCrash() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<2000 {
            var bytes = Data(
                (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
            if Bool.random(using: &generator) {
                // A plausible body length, so the parse gets into the trailer.
                withUnsafeBytes(of: UInt64(Int.random(in: 0...max(0, bytes.count), using: &generator)).littleEndian) {
                    bytes.append(contentsOf: $0)
                }
            }
            bytes.append(HTTPCacheEntry.magic)
            let entry = HTTPCacheEntry(decoding: bytes)
            #expect(entry == .damaged || entry.body != nil)
        }
    }
}
