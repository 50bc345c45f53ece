import Foundation
import NukeCore
import NukeTestKit
import Testing

// PLUGINS-COLOR-BEGIN
/// The decoded `image` with what the file says about its colour: ICC bytes first, else CICP code points.
func handingOverProfile(of image: PlatformImage, icc: Data?, cicp: ColorProfile.CICP?) -> PlatformImage {
    var image = image
    if let icc {
        image.colorProfile = .icc(icc)  // the bytes as embedded, reassembled and inflated
    } else if let cicp, !cicp.isSRGB {
        image.colorProfile = .cicp(cicp)
    }
    return image  // the pixels untouched: the pipeline's converter turns them into sRGB
}
// PLUGINS-COLOR-END

@Suite struct PluginsColorSnippetTests {
    @Test func pluginsGuideShowsTheCompiledSnippet() throws {
        let guide = try DocumentedSnippet.document("Plugins.md")
        let snippet = try DocumentedSnippet.code("PLUGINS-COLOR")

        #expect(guide.contains("```swift\n\(snippet)\n```"))
    }

    @Test func theSnippetPrefersICCAndSkipsSRGB() throws {
        let image = try PlatformImage(width: 1, height: 1)
        let srgb = ColorProfile.CICP(
            colorPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 6, isFullRange: true)
        let p3 = ColorProfile.CICP(
            colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 6, isFullRange: true)

        #expect(handingOverProfile(of: image, icc: Data([1]), cicp: p3).colorProfile == .icc(Data([1])))
        #expect(handingOverProfile(of: image, icc: nil, cicp: p3).colorProfile == .cicp(p3))
        #expect(handingOverProfile(of: image, icc: nil, cicp: srgb).colorProfile == nil)
    }
}
