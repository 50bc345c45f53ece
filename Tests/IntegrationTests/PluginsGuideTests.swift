import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit
import Testing

/// Runs the conformance suites against the worked examples of Plugins.md, and checks that Plugins.md shows
/// exactly the code compiled here.
@Suite struct PluginsGuideTests {
    private static let guideDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("PluginsGuide")

    @Test(arguments: ["HeaderDataLoader.swift", "InMemoryDataCache.swift", "PPMDecoder.swift"])
    func pluginsGuideShowsTheCompiledExample(file: String) throws {
        let root = Self.guideDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Plugins.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.guideDirectory.appendingPathComponent(file), encoding: .utf8)
        #expect(guide.contains("```swift\n\(source)```"), "Plugins.md must show \(file) verbatim")
    }

    /// Examples/ThirdPartyApp, a package built as a third-party app with default main-actor isolation, compiles the
    /// same loader and decoder, and the checks Plugins.md shows (scripts/check-third-party-app.sh builds and runs it).
    @Test(arguments: ["HeaderDataLoader.swift", "PPMDecoder.swift"])
    func theThirdPartyAppCompilesTheSameExample(file: String) throws {
        let root = Self.guideDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let app = root.appendingPathComponent("Examples/ThirdPartyApp/Sources/ThirdPartyApp")
        let copy = try String(contentsOf: app.appendingPathComponent(file), encoding: .utf8)
        let source = try String(contentsOf: Self.guideDirectory.appendingPathComponent(file), encoding: .utf8)
        #expect(copy == source, "Examples/ThirdPartyApp must compile Plugins.md's \(file)")
    }

    @Test(arguments: [
        ("PLUGINS-DECODER-CHECK", "DecoderConformanceTests.swift"),
        ("PLUGINS-TEST-PIPELINE", "AppPipelineTests.swift"),
    ])
    func pluginsGuideShowsTheThirdPartyAppsTests(marker: String, file: String) throws {
        let root = Self.guideDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let tests = root.appendingPathComponent("Examples/ThirdPartyApp/Tests/ThirdPartyAppTests")
        let snippet = try DocumentedSnippet.code(marker, in: tests.appendingPathComponent(file).path)
        let guide = try DocumentedSnippet.document("Plugins.md")
        #expect(guide.contains("```swift\n\(snippet)\n```"), "Plugins.md must show \(marker) of \(file)")
    }

    @Test(arguments: DataLoadingConformance.Check.allCases)
    func headerLoaderConforms(_ check: DataLoadingConformance.Check) async throws {
        let loader = HeaderDataLoader(base: CurlDataLoader(), headers: ["X-Api-Key": "secret"])
        var options = DataLoadingConformance.Options()
        options.statusCode = { ($0 as? CurlError)?.statusCode }
        try await DataLoadingConformance(loader: loader, options: options).run(check)
    }

    @Test func headerLoaderAddsItsHeaders() async throws {
        let server = try LoopbackHTTPServer(routes: ["/image": .data(Data([1, 2, 3]))])
        defer { server.shutdown() }
        let loader = HeaderDataLoader(base: CurlDataLoader(), headers: ["X-Api-Key": "secret"])
        let pipeline = ImagePipeline { $0.dataLoader = loader }
        _ = try await pipeline.data(for: server.url("/image"))
        #expect(server.requests.first?.header("X-Api-Key") == "secret")
    }

    static let cacheConformance = DataCachingConformance(makeCache: { InMemoryDataCache() })

    @Test(arguments: cacheConformance.checks)
    func inMemoryCacheConforms(_ check: DataCachingConformance<InMemoryDataCache>.Check) async throws {
        try await Self.cacheConformance.run(check)
    }

    @Test func inMemoryCacheDropsTheOldestOverItsLimit() {
        let cache = InMemoryDataCache(byteLimit: 10)
        cache.storeData(Data(count: 6), for: "a")
        cache.storeData(Data(count: 6), for: "b")
        #expect(!cache.containsData(for: "a"))
        #expect(cache.containsData(for: "b"))
    }

    static func ppm(width: Int, height: Int) -> Data {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        for index in 0..<(width * height) {
            data.append(contentsOf: [UInt8(index % 256), UInt8(index / 256 % 256), 7])
        }
        return data
    }

    static let decoderConformance = ImageDecodingConformance(
        makeDecoder: { PPMDecoder(context: $0) },
        samples: [
            .init(name: "16×8", data: ppm(width: 16, height: 8), width: 16, height: 8),
            .init(name: "1×1", data: ppm(width: 1, height: 1), width: 1, height: 1),
        ])

    @Test(arguments: decoderConformance.checks)
    func ppmDecoderConforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.decoderConformance.run(check)
    }

    @Test func ppmDecoderWorksThroughARegistry() async throws {
        let registry = ImageDecoderRegistry()
        registry.register { PPMDecoder(context: $0) }
        let pipeline = ImagePipeline {
            $0.imageCache = nil
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        }
        let url = try #require(
            URL(string: "data:image/x-portable-pixmap;base64,\(Self.ppm(width: 4, height: 2).base64EncodedString())"))
        let image = try await pipeline.image(for: url)
        #expect(image.width == 4 && image.height == 2)
        #expect(image.pixel(x: 1, y: 0) == .init(r: 1, g: 0, b: 7))
    }
}
