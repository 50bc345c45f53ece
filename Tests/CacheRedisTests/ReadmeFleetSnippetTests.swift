import CacheDisk
import Foundation
import LoaderCurl
import NukeCore
import Testing

import CacheRedis

/// The README's fleet snippet, compiled here (not run: it names a server that doesn't exist here); the test below
/// checks the README still shows exactly this code.
private func readmeFleet() throws -> ImagePipeline {
    // README-BEGIN
    let redis = try RedisDataCache(url: "redis://cache.internal:6379/0")
    let disk = try DataCache(name: "thumbnails")
    let pipeline = ImagePipeline {
        $0.dataLoader = CurlDataLoader()
        $0.dataCache = TieredDataCache(local: disk, shared: redis)
    }
    // README-END
    return pipeline
}

@Suite struct CacheRedisReadmeTests {
    @Test func readmeShowsTheCompiledSnippet() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: testFile, encoding: .utf8)

        let lines = source.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// README-BEGIN") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// README-END") })
        let snippet = lines[(begin + 1)..<end]
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
            .joined(separator: "\n")

        #expect(readme.contains("```swift\nimport CacheDisk\nimport CacheRedis\n\n\(snippet)\n```"))
    }
}
