import CacheDisk
import Foundation
import LoaderCurl
import NukeCore
import NukeTestKit
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
        let readme = try DocumentedSnippet.document("README.md")
        let snippet = try DocumentedSnippet.code("README")

        #expect(readme.contains("```swift\nimport CacheDisk\nimport CacheRedis\n\n\(snippet)\n```"))
    }
}
