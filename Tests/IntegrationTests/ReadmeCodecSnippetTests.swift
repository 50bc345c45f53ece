import DecoderAVIF
import DecoderGIF
import DecoderHEIF
import DecoderJPEG
import DecoderPNG
import DecoderSVG
import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// The README's codec registration snippet, compiled here (never called: it would change process-wide
/// state); the test below checks the README still shows exactly this code.
private func readmeCodecs() {
    // README-CODECS-BEGIN
    ImageDecoders.PNG.register(in: .shared)
    ImageDecoders.JPEG.register(in: .shared)
    ImageDecoders.WebP.register(in: .shared)
    ImageDecoders.SVG.register(in: .shared)
    ImageDecoders.GIF.register(in: .shared)
    ImageDecoders.AVIF.register(in: .shared)
    ImageDecoders.HEIF.register(in: .shared)
    // README-CODECS-END
}

@Suite struct ReadmeCodecSnippetTests {
    @Test func readmeShowsTheCompiledCodecSnippet() throws {
        let readme = try DocumentedSnippet.document("README.md")
        let snippet = try DocumentedSnippet.code("README-CODECS")
        let imports =
            "import DecoderAVIF\nimport DecoderGIF\nimport DecoderHEIF\nimport DecoderJPEG\nimport DecoderPNG\nimport DecoderSVG\nimport DecoderWebP"

        #expect(readme.contains("```swift\n\(imports)\n\n\(snippet)\n```"))
    }
}
