import DecoderAVIF
import DecoderGIF
import DecoderJPEG
import DecoderPNG
import DecoderSVG
import DecoderWebP
import Foundation
import NukeCore
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
    // README-CODECS-END
}

@Suite struct ReadmeCodecSnippetTests {
    @Test func readmeShowsTheCompiledCodecSnippet() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = try String(contentsOf: testFile, encoding: .utf8).components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// README-CODECS-BEGIN") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// README-CODECS-END") })
        let snippet = lines[(begin + 1)..<end].map { String($0.dropFirst(4)) }.joined(separator: "\n")
        let imports =
            "import DecoderAVIF\nimport DecoderGIF\nimport DecoderJPEG\nimport DecoderPNG\nimport DecoderSVG\nimport DecoderWebP"

        #expect(readme.contains("```swift\n\(imports)\n\n\(snippet)\n```"))
    }
}
