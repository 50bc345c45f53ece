import Foundation
import NukeCore
import NukeTestKit
import Testing

/// The README's processing snippet, compiled here; the test below checks the README still shows this code.
private func readmeProcessing(pipeline: ImagePipeline, url: URL) async throws -> PlatformImage {
    // README-PROCESSING-BEGIN
    let request = ImageRequest(
        url: url,
        processors: [
            .resize(size: CGSize(width: 160, height: 160), contentMode: .aspectFill, crop: true),
            .roundedCorners(radius: 12),
        ]
    )
    let avatar = try await pipeline.image(for: request)
    // README-PROCESSING-END
    return avatar
}

@Suite struct ReadmeProcessingSnippetTests {
    @Test func readmeShowsTheCompiledProcessingSnippet() throws {
        let readme = try DocumentedSnippet.document("README.md")
        let snippet = try DocumentedSnippet.code("README-PROCESSING")
        #expect(readme.contains("```swift\n\(snippet)\n```"))
    }

    @Test func snippetProducesTheAvatar() async throws {
        // Given a 300×200 image behind a data URL, through a decoder that returns it
        let image = try TestImages.texture(width: 300, height: 200)
        let pipeline = ImagePipeline {
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in FixedImageDecoder(image: image) }
        }
        let url = try #require(URL(string: "data:application/octet-stream;base64,AAAA"))

        // When the snippet runs
        let avatar = try await readmeProcessing(pipeline: pipeline, url: url)

        // Then it is a 160×160 thumbnail with rounded corners
        #expect(avatar.width == 160 && avatar.height == 160)
        #expect(avatar.pixel(x: 0, y: 0)?.a == 0)
    }
}

/// Decodes any data into the same image.
private struct FixedImageDecoder: ImageDecoding {
    let image: PlatformImage

    func decode(_ data: Data) throws -> ImageContainer {
        ImageContainer(image: image)
    }
}
