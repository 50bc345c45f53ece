import Foundation
import NukeCore
import NukeTestKit
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
        let readme = try DocumentedSnippet.document("README.md")
        let snippet = try DocumentedSnippet.code("README")

        #expect(readme.contains("```swift\nimport NukeCore\n\n\(snippet)\n```"))
    }
}
