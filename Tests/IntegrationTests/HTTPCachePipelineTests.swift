import CacheDisk
import Foundation
import LoaderCurl
import NukeTestKit
import Testing

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The disk cache following HTTP caching headers (RFC 9111, private cache), end to end: `CurlDataLoader` against a
/// real loopback server whose responses are scripted per request, and a real `DataCache` in a temporary directory.
@Suite("HTTP caching semantics")
struct HTTPCachePipelineTests {
    /// A resource on the server whose body, validators and caching headers a test changes between requests, and
    /// which answers a matching `If-None-Match` / `If-Modified-Since` with `304`.
    final class Resource: Sendable {
        struct Version: Sendable {
            var body: Data
            var etag: String?
            var lastModified: String?
            var headers: [String: String]
            /// The headers of a `304` (defaults to `headers`).
            var notModifiedHeaders: [String: String]?
            /// Answers with this status instead (a server error, a missing file).
            var failure: Int?
            /// The headers of the ``failure`` response (none by default).
            var failureHeaders: [String: String] = [:]
            /// Seconds the server waits before answering.
            var delay: TimeInterval = 0
        }

        let version: LockedValueBox<Version>

        init(_ version: Version) {
            self.version = LockedValueBox(version)
        }

        var route: LoopbackHTTPServer.Route {
            .handler { [version] request in
                let current = version.snapshot
                if current.delay > 0 { Thread.sleep(forTimeInterval: current.delay) }
                if let failure = current.failure {
                    return .data(Data("status \(failure)\n".utf8), status: failure, headers: current.failureHeaders)
                }
                var headers = current.headers
                if let etag = current.etag { headers["ETag"] = etag }
                if let lastModified = current.lastModified { headers["Last-Modified"] = lastModified }
                let matchesETag = current.etag != nil && request.header("If-None-Match") == current.etag
                let matchesDate =
                    current.lastModified != nil && request.header("If-None-Match") == nil
                    && request.header("If-Modified-Since") == current.lastModified
                if matchesETag || matchesDate {
                    var notModified = current.notModifiedHeaders ?? current.headers
                    if let etag = current.etag { notModified["ETag"] = etag }
                    return .data(Data(), status: 304, headers: notModified)
                }
                return .data(current.body, headers: headers)
            }
        }
    }

    /// A pipeline that follows HTTP caching headers, over a fresh `DataCache` directory and a server with one resource
    /// at `/image`.
    final class Fixture: Sendable {
        let server: LoopbackHTTPServer
        let resource: Resource
        let directory: URL
        let dataCache: DataCache
        let pipeline: ImagePipeline

        init(
            _ version: Resource.Version,
            configure: @Sendable (inout ImagePipeline.Configuration) -> Void = { _ in }
        ) throws {
            resource = Resource(version)
            server = try LoopbackHTTPServer(routes: ["/image": resource.route])
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("http-cache-\(UUID().uuidString)")
            dataCache = try DataCache(path: directory)
            let dataCache = self.dataCache
            pipeline = ImagePipeline {
                $0.dataLoader = CurlDataLoader()
                $0.dataCache = dataCache
                $0.imageCache = nil
                $0.makeImageDecoder = { _ in MockImageDecoder() }
                $0.httpCachePolicy = .followHeaders  // The policy under test (the default ignores headers).
                configure(&$0)
            }
        }

        deinit {
            server.shutdown()
            // Writes still staged would otherwise land after the removal and leave the directory behind.
            dataCache.flush()
            try? FileManager.default.removeItem(at: directory)
        }

        var url: URL { server.url("/image") }
        var requests: [LoopbackHTTPServer.RecordedRequest] { server.requests(for: "/image") }

        func load(_ options: ImageRequest.Options = []) async throws -> ImageResponse {
            try await pipeline.imageTask(with: ImageRequest(url: url, options: options)).response
        }

        /// The first byte of the image (the mock decoder's red channel is the body's first byte).
        func firstByte(_ response: ImageResponse) -> UInt8? {
            response.image.pixel(x: 0, y: 0)?.r
        }

        var metadata: HTTPCacheMetadata? {
            pipeline.cache.cachedHTTPMetadata(for: ImageRequest(url: url))
        }

        func setVersion(_ change: (inout Resource.Version) -> Void) {
            resource.version.withLock { change(&$0) }
        }
    }

    private static let v1 = Data([0x11, 0x11, 0x11, 0xFF]) + Data(repeating: 1, count: 50_000)
    private static let v2 = Data([0x22, 0x22, 0x22, 0xFF]) + Data(repeating: 2, count: 50_000)
    private static let httpDate = HTTPDate.format(Date().timeIntervalSince1970 - 3600)

    private static func version(
        _ cacheControl: String?, etag: String? = "\"v1\"", lastModified: String? = nil, body: Data = v1
    ) -> Resource.Version {
        var headers = ["Content-Type": "application/octet-stream"]
        if let cacheControl { headers["Cache-Control"] = cacheControl }
        return Resource.Version(body: body, etag: etag, lastModified: lastModified, headers: headers)
    }

    // MARK: Freshness

    @Test func aFreshEntryIsServedWithoutARequest() async throws {
        let fixture = try Fixture(Self.version("max-age=600"))
        _ = try await fixture.load()
        let again = try await fixture.load()
        #expect(again.cacheType == .disk)
        #expect(!again.isStale)
        #expect(fixture.requests.count == 1)
        #expect(fixture.metadata?.cacheControl.maxAge == 600)
        #expect(fixture.pipeline.statistics.diskCacheHits == 1)
    }

    @Test func varyKeepsOneVariantAndServesItOnlyToTheSameVariedHeaders() async throws {
        // Given a fresh image that varies on Accept
        let fixture = try Fixture(Self.version("max-age=600"))
        fixture.setVersion { $0.headers["Vary"] = "Accept" }
        func load(accept: String?) async throws -> URLResponse? {
            var request = URLRequest(url: fixture.url)
            if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
            return try await fixture.pipeline.data(for: ImageRequest(urlRequest: request)).1
        }

        // When it's loaded with one Accept, then again with the same
        _ = try await load(accept: "image/avif")
        let same = try await load(accept: "image/avif")

        // Then the second comes from the disk cache (no response), with the varied header stored
        #expect(same == nil)
        #expect(fixture.requests.count == 1)
        #expect(fixture.metadata?.varyingHeaderNames == ["accept"])
        #expect(fixture.metadata?.varyingHeaderValues == ["accept": "image/avif"])

        // When another Accept, or none, asks
        _ = try await load(accept: "image/webp")
        // Then it is loaded, and its response replaces the stored variant (one per URL)
        #expect(fixture.requests.count == 2)
        #expect(fixture.requests.last?.header("Accept") == "image/webp")
        #expect(try await load(accept: "image/webp") == nil)
        #expect(fixture.requests.count == 2)
        _ = try await load(accept: nil)
        _ = try await load(accept: "image/avif")
        #expect(fixture.requests.count == 4)
        #expect(fixture.metadata?.varyingHeaderValues == ["accept": "image/avif"])
    }

    @Test func expiresAndTheLastModifiedHeuristicMakeItFreshToo() async throws {
        let expires = try Fixture(Self.version(nil, etag: nil))
        expires.setVersion {
            $0.headers["Date"] = HTTPDate.format(Date().timeIntervalSince1970)
            $0.headers["Expires"] = HTTPDate.format(Date().timeIntervalSince1970 + 600)
        }
        _ = try await expires.load()
        #expect(try await expires.load().cacheType == .disk)
        #expect(expires.requests.count == 1)

        // Modified ten days ago: fresh for a day by the heuristic.
        let heuristic = try Fixture(
            Self.version(nil, etag: nil, lastModified: HTTPDate.format(Date().timeIntervalSince1970 - 864_000)))
        _ = try await heuristic.load()
        #expect(try await heuristic.load().cacheType == .disk)
        #expect(heuristic.requests.count == 1)
        #expect(heuristic.metadata?.freshnessLifetime == HTTPCacheMetadata.maximumHeuristicLifetime)
    }

    @Test func anImmutableFreshEntryIsNeverRevalidated() async throws {
        let fixture = try Fixture(Self.version("max-age=31536000, immutable"))
        _ = try await fixture.load()
        for _ in 0..<3 { #expect(try await fixture.load().cacheType == .disk) }
        #expect(fixture.requests.count == 1)
    }

    // MARK: Revalidation

    @Test func aStaleEntryIsRevalidatedAndA304ServesTheStoredBytes() async throws {
        let fixture = try Fixture(Self.version("max-age=0"))
        fixture.setVersion { $0.notModifiedHeaders = ["Cache-Control": "max-age=600"] }
        _ = try await fixture.load()
        let before = try #require(fixture.metadata)

        let revalidated = try await fixture.load()

        #expect(fixture.requests.count == 2)
        #expect(fixture.requests[0].header("If-None-Match") == nil)
        #expect(fixture.requests[1].header("If-None-Match") == "\"v1\"")
        #expect(revalidated.cacheType == .disk)
        #expect((revalidated.urlResponse as? HTTPURLResponse)?.statusCode == 304)
        #expect(fixture.firstByte(revalidated) == 0x11)
        #expect(fixture.pipeline.statistics.revalidations == 1)
        #expect(fixture.pipeline.statistics.refetches == 0)
        // The stored freshness now comes from the 304: fresh for ten minutes, so the next load makes no request.
        fixture.dataCache.flush()
        let after = try #require(fixture.metadata)
        #expect(after.cacheControl.maxAge == 600)
        #expect(after.responseTime >= before.responseTime)
        #expect(try await fixture.load().cacheType == .disk)
        #expect(fixture.requests.count == 2)
    }

    @Test func lastModifiedAloneSendsIfModifiedSince() async throws {
        let fixture = try Fixture(Self.version("no-cache", etag: nil, lastModified: Self.httpDate))
        _ = try await fixture.load()
        let revalidated = try await fixture.load()
        #expect(fixture.requests.count == 2)
        #expect(fixture.requests[1].header("If-Modified-Since") == Self.httpDate)
        #expect(fixture.requests[1].header("If-None-Match") == nil)
        #expect((revalidated.urlResponse as? HTTPURLResponse)?.statusCode == 304)
    }

    @Test func aChangedResourceReplacesTheEntry() async throws {
        let fixture = try Fixture(Self.version("max-age=0"))
        #expect(fixture.firstByte(try await fixture.load()) == 0x11)
        fixture.setVersion {
            $0.body = Self.v2
            $0.etag = "\"v2\""
            $0.headers["Cache-Control"] = "max-age=600"
        }
        let changed = try await fixture.load()
        #expect(fixture.requests[1].header("If-None-Match") == "\"v1\"")
        #expect(changed.cacheType == nil)
        #expect(fixture.firstByte(changed) == 0x22)
        #expect(fixture.pipeline.statistics.refetches == 1)
        fixture.dataCache.flush()
        #expect(fixture.metadata?.etag == "\"v2\"")
        #expect(fixture.firstByte(try await fixture.load()) == 0x22)
        #expect(fixture.requests.count == 2)
    }

    @Test func noCacheAndMustRevalidateAskTheServerFirst() async throws {
        let noCache = try Fixture(Self.version("max-age=600, no-cache"))
        for _ in 0..<3 { _ = try await noCache.load() }
        #expect(noCache.requests.count == 3)
        #expect(noCache.pipeline.statistics.revalidations == 2)

        let mustRevalidate = try Fixture(Self.version("max-age=0, must-revalidate"))
        _ = try await mustRevalidate.load()
        _ = try await mustRevalidate.load()
        #expect(mustRevalidate.requests.count == 2)
        #expect(mustRevalidate.requests[1].header("If-None-Match") == "\"v1\"")
    }

    @Test func aStaleEntryWithoutAValidatorIsLoadedAgain() async throws {
        let fixture = try Fixture(Self.version(nil, etag: nil))
        _ = try await fixture.load()
        let again = try await fixture.load()
        #expect(again.cacheType == nil)
        #expect(fixture.requests.count == 2)
        #expect(fixture.requests[1].header("If-None-Match") == nil)
        #expect(fixture.requests[1].header("If-Modified-Since") == nil)
        #expect(fixture.pipeline.statistics.refetches == 1)
    }

    // MARK: Storage

    @Test func noStoreIsNeverWrittenToDiskButTheMemoryCacheWorks() async throws {
        let imageCache = ImageCache()
        let fixture = try Fixture(Self.version("no-store")) { $0.imageCache = imageCache }
        _ = try await fixture.load()
        fixture.dataCache.flush()
        #expect(fixture.dataCache.totalCount == 0)
        #expect(try await fixture.load().cacheType == .memory)
        #expect(fixture.requests.count == 1)
    }

    @Test func aResponseThatTurnsNoStoreRemovesTheEntry() async throws {
        let fixture = try Fixture(Self.version("max-age=0"))
        _ = try await fixture.load()
        fixture.setVersion {
            $0.body = Self.v2
            $0.etag = nil
            $0.headers["Cache-Control"] = "no-store"
        }
        #expect(fixture.firstByte(try await fixture.load()) == 0x22)
        fixture.dataCache.flush()
        #expect(fixture.pipeline.cache.cachedData(for: ImageRequest(url: fixture.url)) == nil)
    }

    @Test func aDamagedOrForeignEntryIsAMiss() async throws {
        let fixture = try Fixture(Self.version("max-age=600"))
        let key = fixture.pipeline.cache.makeDataCacheKey(for: ImageRequest(url: fixture.url))
        fixture.dataCache.storeData(Data(repeating: 7, count: 20) + HTTPCacheEntry.magic, for: key)
        let loaded = try await fixture.load()
        #expect(loaded.cacheType == nil)
        #expect(fixture.requests.count == 1)
        fixture.dataCache.flush()
        #expect(fixture.metadata?.etag == "\"v1\"")
        // A plain entry (stored by the app) is fresh until evicted.
        fixture.pipeline.cache.storeCachedData(Self.v2, for: ImageRequest(url: fixture.url))
        let plain = try await fixture.load()
        #expect(plain.cacheType == .disk)
        #expect(fixture.firstByte(plain) == 0x22)
        #expect(fixture.requests.count == 1)
    }

    // MARK: Stale responses

    @Test func staleWhileRevalidateServesAtOnceAndRevalidatesInTheBackground() async throws {
        let fixture = try Fixture(Self.version("max-age=0, stale-while-revalidate=600"))
        fixture.setVersion { $0.notModifiedHeaders = ["Cache-Control": "max-age=600"] }
        _ = try await fixture.load()

        let stale = try await fixture.load()

        #expect(stale.isStale)
        #expect(stale.cacheType == .disk)
        #expect(fixture.firstByte(stale) == 0x11)
        try await fixture.server.waitUntil("the background revalidation", timeout: .seconds(20)) {
            $0.requestCount >= 2
        }
        #expect(fixture.requests[1].header("If-None-Match") == "\"v1\"")
        try await waitUntil { fixture.pipeline.statistics.revalidations == 1 }
        fixture.dataCache.flush()
        #expect(fixture.metadata?.cacheControl.maxAge == 600)
        let fresh = try await fixture.load()
        #expect(!fresh.isStale)
        #expect(fixture.requests.count == 2)
    }

    @Test func staleWhileRevalidateSendsOneRequestForManyLoads() async throws {
        let fixture = try Fixture(Self.version("max-age=0, stale-while-revalidate=600"))
        _ = try await fixture.load()
        fixture.setVersion {
            $0.body = Self.v2
            $0.delay = 0.3  // Keeps the revalidation running while the others arrive.
        }
        let tasks = (0..<20).map { _ in fixture.pipeline.imageTask(with: ImageRequest(url: fixture.url)) }
        var responses: [ImageResponse] = []
        for task in tasks { responses.append(try await task.response) }
        #expect(responses.allSatisfy { $0.isStale })
        try await waitUntil { fixture.pipeline.statistics.revalidations + fixture.pipeline.statistics.refetches > 0 }
        #expect(fixture.requests.count == 2)
    }

    @Test func staleWhileRevalidateSendsOneRequestForManyLoadsWithoutTaskCoalescing() async throws {
        // Without task coalescing each load reads the cache and serves the stale entry on its own, so the one
        // conditional request comes from the background revalidation's own de-duplication.
        let fixture = try Fixture(Self.version("max-age=0, stale-while-revalidate=600")) {
            $0.isTaskCoalescingEnabled = false
        }
        _ = try await fixture.load()
        fixture.setVersion {
            $0.delay = 1  // Keeps the revalidation running while the others arrive.
            $0.notModifiedHeaders = ["Cache-Control": "max-age=600"]  // Then fresh: a late load asks nothing.
        }
        let responses = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for _ in 0..<20 { group.addTask { try await fixture.load() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.count == 20 && responses.allSatisfy { $0.cacheType == .disk })
        #expect(responses.filter(\.isStale).count >= 2)  // Several loads found it in flight.
        try await waitUntil { fixture.pipeline.statistics.revalidations == 1 }
        #expect(fixture.requests.count == 2)
        #expect(fixture.requests[1].header("If-None-Match") == "\"v1\"")
    }

    @Test func staleIfErrorServesTheStaleImageAfterA5xxOrANetworkFailure() async throws {
        let fixture = try Fixture(Self.version("max-age=0, stale-if-error=600"))
        _ = try await fixture.load()

        fixture.setVersion { $0.failure = 503 }
        let afterServerError = try await fixture.load()
        #expect(afterServerError.isStale)
        #expect(fixture.firstByte(afterServerError) == 0x11)
        #expect(fixture.pipeline.statistics.staleHits == 1)

        // A client error means the image is gone: no stale copy.
        fixture.setVersion { $0.failure = 404 }
        await #expect(throws: ImagePipeline.Error.self) { try await fixture.load() }

        // The server is down.
        fixture.server.shutdown()
        let offline = try await fixture.load()
        #expect(offline.isStale)
    }

    @Test func withoutStaleIfErrorAFailedRevalidationFailsUnlessTheOfflineOptionIsOn() async throws {
        let strict = try Fixture(Self.version("max-age=0, must-revalidate, stale-if-error=600"))
        _ = try await strict.load()
        strict.server.shutdown()
        await #expect(throws: ImagePipeline.Error.self) { try await strict.load() }

        let offline = try Fixture(Self.version("max-age=0, must-revalidate")) { $0.isServingStaleDataOnFailure = true }
        _ = try await offline.load()
        offline.server.shutdown()
        let served = try await offline.load()
        #expect(served.isStale)
        #expect(served.cacheType == .disk)
    }

    // MARK: Error statuses

    /// The error of a failed load: the loader's, or the stored status's.
    private static func loadError(_ load: () async throws -> ImageResponse) async -> (any Error)? {
        do {
            _ = try await load()
            return nil
        } catch let ImagePipeline.Error.dataLoadingFailed(error) {
            return error
        } catch {
            return error
        }
    }

    @Test func aFreshErrorStatusIsStoredAndFailsLaterRequestsWithoutALoad() async throws {
        // Given a missing image whose 404 may be kept for ten minutes
        let fixture = try Fixture(Self.version("max-age=600"))
        fixture.setVersion {
            $0.failure = 404
            $0.failureHeaders = ["Cache-Control": "max-age=600"]
        }

        // When it is asked for, then again, original and processed
        let first = await Self.loadError { try await fixture.load() }
        let second = await Self.loadError { try await fixture.load() }
        let processed = await Self.loadError {
            try await fixture.pipeline.imageTask(
                with: ImageRequest(url: fixture.url, processors: [MockImageProcessor(id: "p")])
            ).response
        }

        // Then the origin answered once; the others failed with the stored status, at once
        #expect((first as? CurlError)?.statusCode == 404)
        let stored = try #require(second as? CachedHTTPStatusError)
        #expect(stored.statusCode == 404 && stored.httpStatusCode == 404 && stored.url == fixture.url)
        #expect(stored.description.contains("404"))
        #expect((processed as? CachedHTTPStatusError)?.statusCode == 404)
        #expect(fixture.requests.count == 1)
        // And the entry is a status, not data
        #expect(fixture.metadata?.statusCode == 404)
        #expect(fixture.pipeline.cache.cachedData(for: ImageRequest(url: fixture.url)) == nil)
    }

    @Test func errorStatusesAreStoredByTheRFCsRulesOnly() async throws {
        let tenDaysAgo = HTTPDate.format(Date().timeIntervalSince1970 - 864_000)
        func requests(status: Int, headers: [String: String]) async throws -> Int {
            let fixture = try Fixture(Self.version("max-age=600"))
            fixture.setVersion {
                $0.failure = status
                $0.failureHeaders = headers
            }
            for _ in 0..<2 { _ = await Self.loadError { try await fixture.load() } }
            return fixture.requests.count
        }
        // A heuristically cacheable status by Last-Modified; any status with explicit freshness or `public`
        #expect(try await requests(status: 410, headers: ["Last-Modified": tenDaysAgo]) == 1)
        #expect(try await requests(status: 503, headers: ["Cache-Control": "max-age=600"]) == 1)
        let publicUnknown = ["Cache-Control": "public", "Last-Modified": tenDaysAgo]
        #expect(try await requests(status: 599, headers: publicUnknown) == 1)
        // Not: another status by Last-Modified alone, no freshness at all, no-store, no-cache
        #expect(try await requests(status: 500, headers: ["Last-Modified": tenDaysAgo]) == 2)
        #expect(try await requests(status: 404, headers: [:]) == 2)
        #expect(try await requests(status: 404, headers: ["Cache-Control": "max-age=600, no-store"]) == 2)
        #expect(try await requests(status: 404, headers: ["Cache-Control": "max-age=600, no-cache"]) == 2)
    }

    @Test func aStaleStoredErrorStatusIsLoadedAgainAndReplacedOrRemoved() async throws {
        // Given a stored 404 that went stale an hour ago
        let fixture = try Fixture(Self.version("max-age=600"))
        let request = ImageRequest(url: fixture.url)
        let key = fixture.pipeline.cache.makeDataCacheKey(for: request)
        let hourAgo = Date().addingTimeInterval(-3600)
        func storeStaleNotFound() {
            var stale = HTTPCacheMetadata(statusCode: 404, requestTime: hourAgo, responseTime: hourAgo)
            stale.cacheControl.maxAge = 60
            fixture.dataCache.storeData(HTTPCacheEntry.failure(stale).encoded(), for: key)
        }
        storeStaleNotFound()

        // When the image is there now
        let loaded = try await fixture.load()

        // Then it is loaded and replaces the stored status
        #expect(fixture.firstByte(loaded) == 0x11)
        #expect(fixture.requests.count == 1)
        fixture.dataCache.flush()
        #expect(fixture.metadata?.statusCode == 200)

        // When a stale 404 is asked for and the origin fails with a status it may not store
        storeStaleNotFound()
        fixture.setVersion { $0.failure = 500 }
        let error = await Self.loadError { try await fixture.load() }

        // Then the loader's error is reported and the stale status is gone
        #expect((error as? CurlError)?.statusCode == 500)
        fixture.dataCache.flush()
        #expect(fixture.metadata == nil)
    }

    @Test func aStaleImageWhoseRevalidationGetsAFreshErrorStatusIsReplacedByIt() async throws {
        // Given a stored image that is stale
        let fixture = try Fixture(Self.version("max-age=0"))
        _ = try await fixture.load()

        // When the origin now answers 410 Gone, cacheable for ten minutes
        fixture.setVersion {
            $0.failure = 410
            $0.failureHeaders = ["Cache-Control": "max-age=600"]
        }
        let revalidated = await Self.loadError { try await fixture.load() }
        let later = await Self.loadError { try await fixture.load() }

        // Then the revalidation fails with it, and it answers the next request
        #expect((revalidated as? CurlError)?.statusCode == 410)
        #expect((later as? CachedHTTPStatusError)?.statusCode == 410)
        #expect(fixture.requests.count == 2)
    }

    @Test func ignoringHeadersNoErrorStatusIsStored() async throws {
        let fixture = try Fixture(Self.version("max-age=600")) { $0.httpCachePolicy = .ignoreHeaders }
        fixture.setVersion {
            $0.failure = 404
            $0.failureHeaders = ["Cache-Control": "max-age=600"]
        }
        for _ in 0..<2 {
            let error = await Self.loadError { try await fixture.load() }
            #expect((error as? CurlError)?.statusCode == 404)
        }
        #expect(fixture.requests.count == 2)
    }

    // MARK: Request options and the policy

    @Test func returnCacheDataDontLoadServesAStaleEntryAndReloadSkipsTheCache() async throws {
        let fixture = try Fixture(Self.version("max-age=0"))
        _ = try await fixture.load()
        let cached = try await fixture.load(.returnCacheDataDontLoad)
        #expect(cached.isStale)
        #expect(fixture.requests.count == 1)

        _ = try await fixture.load(.reloadIgnoringCachedData)
        #expect(fixture.requests.count == 2)
        #expect(fixture.requests[1].header("If-None-Match") == nil)
    }

    @Test func ignoringHeadersServesStoredDataUntilEvicted() async throws {
        let fixture = try Fixture(Self.version("no-cache, max-age=0")) { $0.httpCachePolicy = .ignoreHeaders }
        _ = try await fixture.load()
        #expect(try await fixture.load().cacheType == .disk)
        #expect(fixture.requests.count == 1)
        // Stored as the plain bytes, as Nuke stores them.
        fixture.dataCache.flush()
        #expect(fixture.metadata == nil)
        let key = fixture.pipeline.cache.makeDataCacheKey(for: ImageRequest(url: fixture.url))
        #expect(fixture.dataCache.cachedData(for: key) == Self.v1)
    }

    @Test func fiftyRequestsForAStaleURLSendOneConditionalRequest() async throws {
        let fixture = try Fixture(Self.version("max-age=0"))
        _ = try await fixture.load()
        // All fifty are under way before the conditional request may start, however slow the machine.
        let queue = fixture.pipeline.configuration.dataLoadingQueue
        queue.isSuspended = true
        let tasks = (0..<50).map { _ in fixture.pipeline.imageTask(with: ImageRequest(url: fixture.url)) }
        queue.isSuspended = false
        var responses: [ImageResponse] = []
        for task in tasks { responses.append(try await task.response) }
        #expect(responses.count == 50)
        #expect(fixture.requests.count == 2)
        #expect(fixture.requests[1].header("If-None-Match") == "\"v1\"")
    }

    // MARK: Processed images

    @Test func aProcessedImageServesOnlyTheVariantItWasMadeFrom() async throws {
        // Given a fresh original that varies on Accept, and its processed image stored with it
        let fixture = try Fixture(Self.version("max-age=600")) {
            $0.dataCachePolicy = .storeAll
            $0.makeImageEncoder = { _ in MockImageEncoder() }
        }
        fixture.setVersion { $0.headers["Vary"] = "Accept" }
        func processed(accept: String) -> ImageRequest {
            var request = URLRequest(url: fixture.url)
            request.setValue(accept, forHTTPHeaderField: "Accept")
            return ImageRequest(urlRequest: request, processors: [MockImageProcessor(id: "p")])
        }
        _ = try await fixture.pipeline.imageTask(with: processed(accept: "image/avif")).response
        await fixture.pipeline.core.pendingEncodes.wait()
        fixture.dataCache.flush()

        // When the same variant asks, Then its processed image is served with no request
        let same = try await fixture.pipeline.imageTask(with: processed(accept: "image/avif")).response
        #expect(same.cacheType == .disk)
        #expect(fixture.requests.count == 1)

        // When another variant asks, Then neither stored image answers it: the original is loaded for it
        _ = try await fixture.pipeline.imageTask(with: processed(accept: "image/webp")).response
        #expect(fixture.requests.count == 2)
        #expect(fixture.requests.last?.header("Accept") == "image/webp")
    }

    @Test func processedImagesFollowTheirOriginal() async throws {
        let fixture = try Fixture(Self.version("max-age=0")) {
            $0.dataCachePolicy = .storeAll
            $0.makeImageEncoder = { _ in MockImageEncoder() }
        }
        let processed = ImageRequest(url: fixture.url, processors: [MockImageProcessor(id: "p")])
        _ = try await fixture.pipeline.imageTask(with: processed).response
        await fixture.pipeline.core.pendingEncodes.wait()
        fixture.dataCache.flush()
        let derived = try #require(fixture.pipeline.cache.cachedHTTPMetadata(for: processed))
        #expect(derived.etag == "\"v1\"")

        // The original changed: the stored processed image (stale with it) is not served; it is made again.
        fixture.setVersion {
            $0.body = Self.v2
            $0.etag = "\"v2\""
            $0.headers["Cache-Control"] = "max-age=600"
        }
        let remade = try await fixture.pipeline.imageTask(with: processed).response
        #expect(fixture.firstByte(remade) == 0x22)
        await fixture.pipeline.core.pendingEncodes.wait()
        fixture.dataCache.flush()
        #expect(fixture.pipeline.cache.cachedHTTPMetadata(for: processed)?.etag == "\"v2\"")
        // Now fresh: served from its own entry, with no request.
        let cached = try await fixture.pipeline.imageTask(with: processed).response
        #expect(cached.cacheType == .disk)
        #expect(fixture.requests.count == 2)
    }
}

/// Polls `condition` for up to 20 s.
private func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 20 s")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
