import CacheDisk
import Foundation
import LoaderCurl
import LoaderURLSession
import NukeCore
import NukeTestKit
import Testing

/// The HTTP cache against a real nginx: static files carry nginx's `ETag` and `Last-Modified`, `expires` and
/// `add_header Cache-Control` set the freshness, and nginx answers conditional requests with `304`.
@Suite(
    "HTTP caching against nginx",
    .enabled(if: NginxServer.unavailableReason == nil, Comment(rawValue: NginxServer.unavailableReason ?? "")))
struct NginxHTTPCacheTests {
    private static let locations = """
        location /hour/ { expires 1h; }
        location /short/ { expires 1s; }
        location /revalidate/ { add_header Cache-Control "no-cache"; }
        """

    private static func body(_ first: UInt8, size: Int) -> Data {
        Data([first, first, first, 0xFF]) + FixturePattern.bytes(in: 0..<size)
    }

    @Test(arguments: LoaderKind.allCases)
    func freshRevalidatedAndChangedFiles(_ kind: LoaderKind) async throws {
        // Given nginx serving three 50 KB files with different caching rules, and a pipeline with a disk cache
        let files = [
            "hour/a.bin": Self.body(0x10, size: 50_000),
            "short/b.bin": Self.body(0x20, size: 50_000),
            "revalidate/c.bin": Self.body(0x30, size: 50_000),
        ]
        let nginx = try await NginxServer.start(files: files, locations: Self.locations)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataCache = try DataCache(path: directory)
        let pipeline = makePipeline(kind) {
            $0.dataCache = dataCache
            $0.httpCachePolicy = .followHeaders
        }
        func load(_ name: String) async throws -> ImageResponse {
            let url = URL(string: "http://127.0.0.1:\(nginx.http1Port)/\(name)")!
            return try await pipeline.imageTask(with: ImageRequest(url: url)).response
        }
        func firstByte(_ response: ImageResponse) -> UInt8? { response.image.pixel(x: 0, y: 0)?.r }

        // When each is loaded, then loaded again at once
        for name in files.keys.sorted() { _ = try await load(name) }
        let hour = try await load("hour/a.bin")
        let revalidated = try await load("revalidate/c.bin")

        // Then the fresh one made no request and the no-cache one was answered 304 from the stored bytes
        #expect(hour.cacheType == .disk)
        #expect(revalidated.cacheType == .disk)
        #expect(firstByte(revalidated) == 0x30)

        // When the short-lived file changes on disk and expires
        try nginx.replaceFile("short/b.bin", with: Self.body(0x21, size: 40_000))
        try await Task.sleep(for: .milliseconds(1_200))
        let changed = try await load("short/b.bin")

        // Then the new image is loaded
        #expect(changed.cacheType == nil)
        #expect(firstByte(changed) == 0x21)
        #expect(pipeline.statistics.revalidations == 1)
        #expect(pipeline.statistics.refetches == 1)

        // And nginx's log shows it: one download of the fresh file, a 304 with no body for the unchanged one
        await nginx.stopped()
        let log = try nginx.accessLog()
        let byFile = Dictionary(grouping: log, by: \.uri)
        #expect(byFile["/hour/a.bin"]?.map(\.status) == [200], "\(log.map { "\($0.uri) \($0.status)" })")
        #expect(byFile["/revalidate/c.bin"]?.map(\.status) == [200, 304])
        #expect(byFile["/revalidate/c.bin"]?.last?.bytes == 0)
        #expect(byFile["/short/b.bin"]?.map(\.status) == [200, 200])
        #expect(byFile["/short/b.bin"]?.last?.bytes == 40_004)
    }
}
