import Foundation
import Nuke
import NukeTestKit
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
    @Test func readmeShowsTheCompiledTour() throws {
        let readme = try DocumentedSnippet.document("README.md")
        #expect(readme.contains("```swift\nimport Nuke\n\n\(try DocumentedSnippet.code("README-TOUR"))\n```"))
        #expect(readme.contains("```swift\n\(try DocumentedSnippet.code("README-PREFETCH"))\n```"))
    }

    @Test func readmeStartsWithTheTwoCommands() throws {
        let readme = try DocumentedSnippet.document("README.md")
        let commands = [
            "./scripts/setup.sh && swift run -c release nuke demo",  // release: the demo at the product's real speed
            "./scripts/test.sh",  // scripts/setup.sh, then swift test with at most 8 tests in flight
        ]
        #expect(readme.hasPrefix("# Nuke for Linux\n\n```sh\n" + commands.joined(separator: "\n") + "\n```"))
        // CI runs the README's test command itself, so a missing install step fails CI.
        let ci = try DocumentedSnippet.document(".ci/run")
        #expect(ci.split(separator: "\n").contains { $0.hasSuffix(" ./scripts/test.sh") })
    }
}
