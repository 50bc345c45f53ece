import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// ``ImageDecodingConformance`` run against the WebP decoder, as a third-party decoder would run it.
@Suite("WebP decoder conformance")
struct WebPConformanceTests {
    static let conformance = ImageDecodingConformance(
        // An animation's canvas is declared apart from its frames (VP8X), so a changed byte there makes a valid
        // file with a canvas of millions of pixels and frames of a few: the decoder allocates what the header
        // declares, up to its limit. The suite's bound for a corrupted sample is 2²⁰ pixels; the limit here
        // is the same, so the check tests that the limit is applied.
        makeDecoder: { ImageDecoders.WebP(context: $0, configuration: .init(maximumPixelCount: 1 << 20)) },
        samples: [("lossy.webp", 64, 48), ("lossless-alpha.webp", 32, 24), ("animated.webp", 24, 16)].map {
            // The fixtures are committed; a missing one fails the "decodesSamples" check with an empty sample.
            .init(name: $0.0, data: (try? fixture($0.0)) ?? Data(), width: $0.1, height: $0.2)
        })

    @Test(arguments: conformance.checks)
    func conforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.conformance.run(check)
    }
}
