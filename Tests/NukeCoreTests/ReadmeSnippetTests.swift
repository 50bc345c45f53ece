import Foundation
import NukeCore
import Testing

/// The README's usage snippet, compiled here; the test below checks the README still shows exactly this code.
private func readmeUsage(url: URL) async throws {
    // README-BEGIN
    let pipeline = ImagePipeline {
        $0.imageCache = ImageCache(costLimit: 256 << 20)
    }

    // async/await
    let image = try await pipeline.image(for: url)
    print(image.width, image.height)

    // a task you can watch, re-prioritise and cancel
    let opaque = ImageProcessors.Anonymous(id: "opaque") { image in
        var image = image
        image.isOpaque = true
        return image
    }
    let task = pipeline.imageTask(with: ImageRequest(url: url, processors: [opaque]))
    task.priority = .high
    for await event in task.events {
        if case let .progress(progress) = event { print(progress.fraction) }
    }

    // closures, called back on `configuration.callbackQueue`
    pipeline.loadImage(with: url) { result in print(result) }
    // README-END
}

@Suite struct ReadmeSnippetTests {
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

        #expect(readme.contains("```swift\nimport NukeCore\n\n\(snippet)\n```"))
    }
}
