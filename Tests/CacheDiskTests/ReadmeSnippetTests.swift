import CacheDisk
import Foundation
import NukeTestKit
import Testing

/// The README's disk-cache snippet, compiled here (not run: it writes to the user's cache directory); the test
/// below checks the README still shows exactly this code.
private func readmeDiskCache(data: Data, url: URL) throws {
    // README-BEGIN
    let cache = try DataCache(name: "com.example.thumbnails")  // $XDG_CACHE_HOME/… or ~/.cache/…
    cache.sizeLimit = 500 << 20
    cache.storeData(data, for: url.absoluteString)  // returns at once; written in the background
    let cached = cache.cachedData(for: url.absoluteString)  // sees the staged write
    cache.storeData(data, for: "thumbnail", ttl: 3_600)  // expires after an hour
    cache.flush()  // waits until everything staged is on disk
    // README-END
    _ = cached
}

@Suite struct CacheDiskReadmeTests {
    @Test func readmeShowsTheCompiledSnippet() throws {
        let readme = try DocumentedSnippet.document("README.md")
        let snippet = try DocumentedSnippet.code("README")

        #expect(readme.contains("```swift\nimport CacheDisk\n\n\(snippet)\n```"))
    }
}
