import CacheDisk
import Foundation
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

        #expect(readme.contains("```swift\nimport CacheDisk\n\n\(snippet)\n```"))
    }
}
