import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LoaderURLSession
import NukeCore
import NukeTestKit
import Testing

@Suite("DataLoader (URLSession)")
struct DataLoaderTests {
    @Test func defaultConfigurationHasNoURLCache() {
        // Given the default configuration
        let configuration = DataLoader.defaultConfiguration

        // Then FoundationNetworking's URLCache (which stores nothing on Linux) is off
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(DataLoader().session.configuration.urlCache == nil)
    }

    @Test func theSharedURLCacheLivesInTheCachesDirectoryNotTheCurrentOne() throws {
        // Given the current directory without the cache's directory (an older build made it there)
        let name = "com.github.kean.Nuke.Cache"
        let files = FileManager.default
        let inCurrent = URL(fileURLWithPath: files.currentDirectoryPath).appendingPathComponent(name)
        try? files.removeItem(at: inCurrent)

        // When the shared cache is made
        #expect(DataLoader.sharedUrlCache.diskCapacity == 150 * 1024 * 1024)

        // Then its directory is under the user's caches directory, and nothing appeared here
        let caches = try #require(files.urls(for: .cachesDirectory, in: .userDomainMask).first)
        #expect(files.fileExists(atPath: caches.appendingPathComponent(name).path))
        #expect(!files.fileExists(atPath: inCurrent.path))
    }

    @Test func loadsABodyWithItsResponse() async throws {
        // Given a resource
        let body = FixturePattern.bytes(in: 0..<70_000)
        let server = try LoopbackHTTPServer(routes: ["/img": .data(body, headers: ["Content-Type": "image/png"])])

        // When it's loaded
        let load = try await load(DataLoader(), server.url("/img"))

        // Then the bytes and the response arrive
        #expect(load.succeeded)
        #expect(load.data == body)
        #expect(load.httpResponse?.statusCode == 200)
        #expect(load.httpResponse?.expectedContentLength == 70_000)
        #expect(load.httpResponse?.mimeType == "image/png")
    }

    @Test func aBodyInAContentCodingLibcurlDoesNotKnowFailsAsDocumented() async throws {
        // Given a response whose Content-Encoding names a coding libcurl can't decode
        let body = Data("bytes in a coding of their own".utf8)
        let server = try LoopbackHTTPServer(routes: [
            "/unknown": .data(body, headers: ["Content-Encoding": "x-nuke-unknown"])
        ])

        // When it's loaded
        let load = try await load(DataLoader(), server.url("/unknown"))

        // Then the load fails with libcurl's decoding error, as the loader's documentation says: FoundationNetworking
        // always asks libcurl to decode, with no option to hand the body over as it came (CurlDataLoader does)
        #expect(!load.succeeded)
        #expect(load.data.isEmpty)
        #expect(String(describing: load.error).contains("Unrecognized content encoding"))
    }

    @Test func nonSuccessStatusFailsWithTheStatusAfterItsResponse() async throws {
        // Given a 404 with caching headers
        let server = try LoopbackHTTPServer(routes: [
            "/missing": .data(Data("no such image".utf8), status: 404, headers: ["Cache-Control": "max-age=60"])
        ])

        // When it's loaded
        let load = try await load(DataLoader(), server.url("/missing"))

        // Then it fails with Nuke's error and no body; its response (for an HTTP cache) came first, as one empty chunk
        #expect(load.error as? DataLoader.Error == .statusCodeUnacceptable(404))
        #expect(load.chunkCount == 1 && load.byteCount == 0)
        #expect(load.httpResponse?.statusCode == 404)
        #expect(load.httpResponse?.value(forHTTPHeaderField: "Cache-Control") == "max-age=60")
        #expect(load.violations.isEmpty)
    }

    @Test func redirectsToOtherSchemesAreRefused() async throws {
        // Given a redirect to an ftp: URL
        let target = URL(string: "ftp://127.0.0.1:1/secret")!
        let server = try LoopbackHTTPServer(routes: ["/evil": .redirect(to: target.absoluteString)])

        // When it's loaded
        let load = try await load(DataLoader(), server.url("/evil"))

        // Then the redirect is refused and nothing is delivered
        #expect(load.error as? DataLoader.Error == .redirectNotAllowed(target))
        #expect(load.byteCount == 0)
    }

    @Test func redirectToAHostlessFileURLStaysOnHTTP() async throws {
        // Given a redirect to file:///etc/passwd (FoundationNetworking resolves a host-less Location against the
        // current URL, so the session turns it into http://<same host>/etc/passwd before the delegate sees it)
        let server = try LoopbackHTTPServer(routes: ["/evil": .redirect(to: "file:///etc/passwd")])

        // When it's loaded
        let load = try await load(DataLoader(), server.url("/evil"))

        // Then no local file is read: the same server was asked for /etc/passwd and answered 404
        #expect(load.error as? DataLoader.Error == .statusCodeUnacceptable(404))
        #expect(server.requests(for: "/etc/passwd").count == 1)
        #expect(load.byteCount == 0)
    }

    @Test func redirectsBeyondTheLimitFail() async throws {
        // Given a three-hop chain and a limit of two
        let server = try LoopbackHTTPServer(routes: [
            "/1": .redirect(to: "/2"), "/2": .redirect(to: "/3"), "/3": .redirect(to: "/done"),
            "/done": .data(Data("done".utf8)),
        ])

        // When it's loaded
        let load = try await load(DataLoader(maximumRedirects: 2), server.url("/1"))

        // Then two redirects are followed and the third is refused, naming its target
        #expect(load.error as? DataLoader.Error == .tooManyRedirects(server.url("/done")))
        #expect(server.requests(for: "/3").count == 1)
        #expect(server.requests(for: "/done").isEmpty)
    }

    @Test func cancelStopsTheTransferSilently() async throws {
        // Given a transfer stalled mid-body
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall(afterSending: Data(count: 100))])
        // (its idle timeout outlasts the test, however long a loaded machine takes to get to the cancel)
        var request = URLRequest(url: server.url("/stall"))
        request.timeoutInterval = 3600
        let load = RecordedLoad(loader: DataLoader(), request: request)
        try await load.waitForFirstChunk()

        // When it's cancelled
        load.cancel()

        // Then the server sees the client leave and no completion is called
        try await server.waitUntil("the client to leave") { $0.abortedResponses == 1 }
        #expect(load.completionCount == 0)
        #expect(load.violations.isEmpty)
    }

    @Test func customValidationRejectsResponsesBeforeTheirBody() async throws {
        // Given a validator that accepts only PNG responses
        struct NotPNG: Error {}
        let server = try LoopbackHTTPServer(routes: [
            "/png": .data(Data("png".utf8), headers: ["Content-Type": "image/png"]),
            "/text": .data(Data("text".utf8), headers: ["Content-Type": "text/plain"]),
        ])
        let loader = DataLoader(validate: { response in
            response.mimeType == "image/png" ? DataLoader.validate(response: response) : NotPNG()
        })

        // When both are loaded
        let png = try await load(loader, server.url("/png"))
        let text = try await load(loader, server.url("/text"))

        // Then the PNG arrives and the text fails with the validator's error, with no body delivered
        #expect(png.error == nil && png.byteCount == 3)
        #expect(text.error is NotPNG)
        #expect(text.byteCount == 0 && text.chunkCount == 0)  // A 200 it rejects: not even the response.
    }

    @Test func defaultValidationAcceptsSuccessStatusesAndNonHTTPResponses() throws {
        let url = try #require(URL(string: "http://127.0.0.1/a"))
        let ok = try #require(HTTPURLResponse(url: url, statusCode: 204, httpVersion: nil, headerFields: nil))
        let missing = try #require(HTTPURLResponse(url: url, statusCode: 404, httpVersion: nil, headerFields: nil))
        #expect(DataLoader.validate(response: ok) == nil)
        #expect(DataLoader.validate(response: missing) as? DataLoader.Error == .statusCodeUnacceptable(404))
        let plain = URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        #expect(DataLoader.validate(response: plain) == nil)
    }

    @Test(.timeLimit(.minutes(1))) func appDelegateHearsTheSessionsInvalidation() async throws {
        // Given an app delegate on the loader
        final class InvalidationDelegate: NSObject, URLSessionDelegate, @unchecked Sendable {
            // @unchecked: `gate` is Sendable; nothing else is stored.
            let gate = Gate()
            func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) { gate.open() }
        }
        let loader = DataLoader()
        let delegate = InvalidationDelegate()
        loader.delegate = delegate
        #expect(loader.delegate === delegate)

        // When the session is invalidated
        loader.session.invalidateAndCancel()

        // Then the event the loader doesn't handle itself reaches the app's delegate
        await delegate.gate.wait()
        #expect(delegate.gate.isOpen)
    }

    @Test func errorsDescribeThemselves() {
        #expect(DataLoader.Error.statusCodeUnacceptable(500).description.contains("500"))
        #expect(DataLoader.Error.redirectNotAllowed(URL(string: "ftp://x/y")).description.contains("ftp://x/y"))
        #expect(DataLoader.Error.tooManyRedirects(nil).description.contains("Too many redirects"))
    }
}

/// Loads `url` and waits (bounded) for its completion.
func load(_ loader: any DataLoading, _ url: URL) async throws -> RecordedLoad {
    let load = RecordedLoad(loader: loader, url: url)
    try await load.waitForCompletion(timeout: .seconds(30))
    #expect(load.violations.isEmpty, "\(load.violations)")
    return load
}
