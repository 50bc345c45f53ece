import Foundation
import Nuke
import Testing

/// The README tour's snippets, compiled here (not run: the first one writes to the user's cache directory);
/// the test below checks the README still shows exactly this code.
private func readmeTour(url: URL) async throws {
    // README-TOUR-BEGIN
    try ImagePipeline.setUpShared()
    let image = try await ImagePipeline.shared.image(for: url)
    print(image.width, image.height)  // premultiplied RGBA pixels in image.withUnsafeBytes { … }

    // A 256-pixel thumbnail, decoded at reduced size where the codec can (JPEG DCT scaling, WebP, SVG)
    var request = ImageRequest(url: url)
    request.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 256)
    let thumbnail = try await ImagePipeline.shared.image(for: request)
    // README-TOUR-END
    _ = thumbnail
}

private func readmePrefetching(urls: [URL], scrollY: Double, viewport: CGSize, layout: @escaping (CGRect) -> [Int]) {
    // README-PREFETCH-BEGIN
    let prefetcher = ImagePrefetcher(pipeline: .shared, destination: .memoryCache)
    let window = PrefetchWindow(axis: .vertical) { rect in rows(in: rect) }  // your layout
    let change = window.update(offset: CGPoint(x: 0, y: scrollY), viewportSize: viewport)
    prefetcher.startPrefetching(with: change.added.map { urls[$0] })
    prefetcher.stopPrefetching(with: change.removed.map { urls[$0] })
    // README-PREFETCH-END
    func rows(in rect: CGRect) -> [Int] { layout(rect) }
}

@Suite struct ReadmeTourTests {
    private func snippet(_ marker: String, in source: String) throws -> String {
        let lines = source.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// README-\(marker)-BEGIN") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// README-\(marker)-END") })
        return lines[(begin + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
            .joined(separator: "\n")
    }

    @Test func readmeShowsTheCompiledTour() throws {
        let file = URL(fileURLWithPath: #filePath)
        let root = file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: file, encoding: .utf8)
        #expect(readme.contains("```swift\nimport Nuke\n\n\(try snippet("TOUR", in: source))\n```"))
        #expect(readme.contains("```swift\n\(try snippet("PREFETCH", in: source))\n```"))
    }

    @Test func readmeStartsWithTheTwoCommands() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = [
            "./scripts/setup.sh && swift run -c release nuke demo",  // release: the demo at the product's real speed
            "./scripts/test.sh",  // scripts/setup.sh, then swift test with at most 8 tests in flight
        ]
        #expect(readme.hasPrefix("# Nuke for Linux\n\n```sh\n" + commands.joined(separator: "\n") + "\n```"))
        // CI runs the README's test command itself, so a missing install step fails CI.
        let ci = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.split(separator: "\n").contains { $0.hasSuffix(" ./scripts/test.sh") })
    }
}
