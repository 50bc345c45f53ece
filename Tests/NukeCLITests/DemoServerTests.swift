import Foundation
import Testing

@testable import NukeCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo's server sends the caching headers of an image host and answers conditional requests with `304`.
@Suite struct DemoServerTests {
    static let file = DemoImageSet.File(
        path: "/a.png", contentType: "image/png", data: Data((0..<5_000).map { UInt8($0 % 251) }))

    /// `GET path` with `headers`, through a session that caches nothing.
    static func get(_ url: URL, headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let (data, response) = try await URLSession(configuration: configuration).data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    @Test func filesCarryCachingHeadersAndValidatorsAnswer304() async throws {
        let server = try DemoServer(files: [Self.file], latency: 0, maxAge: 600)
        defer { server.shutdown() }
        let url = server.url("/a.png")

        let (body, response) = try await Self.get(url)
        let etag = try #require(response.value(forHTTPHeaderField: "ETag"))
        let lastModified = try #require(response.value(forHTTPHeaderField: "Last-Modified"))
        let (_, byTag) = try await Self.get(url, headers: ["If-None-Match": etag])
        let (_, byDate) = try await Self.get(url, headers: ["If-Modified-Since": lastModified])
        let (changed, byOtherTag) = try await Self.get(url, headers: ["If-None-Match": "\"other\""])

        #expect(body == Self.file.data)
        #expect(response.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=600")
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("-5000\""))
        #expect(lastModified.hasSuffix(" GMT") && response.value(forHTTPHeaderField: "Date") != nil)
        #expect(byTag.statusCode == 304)
        #expect(byDate.statusCode == 304)
        #expect(byOtherTag.statusCode == 200 && changed == Self.file.data)
        #expect(server.statistics.notModified == 2)
    }
}
