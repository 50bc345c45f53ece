import ColorLCMS
import NukeCore
import NukeTestKit
import Testing

/// The README's colour snippet, compiled here; the test checks the README still shows exactly this code.
private func readmeColor() -> ImagePipeline {
    // README-COLOR-BEGIN
    let pipeline = ImagePipeline {
        $0.colorConverter = LCMSColorConverter()
        $0.colorProfilePolicy = .keepOriginal  // default: .convertToSRGB
    }
    // README-COLOR-END
    return pipeline
}

@Suite struct ReadmeColorSnippetTests {
    @Test func readmeShowsTheCompiledColorSnippet() throws {
        let readme = try DocumentedSnippet.document("README.md")
        let snippet = try DocumentedSnippet.code("README-COLOR")

        #expect(readme.contains("```swift\nimport ColorLCMS\n\n\(snippet)\n```"))
        #expect(readmeColor().configuration.colorProfilePolicy == .keepOriginal)
    }
}
