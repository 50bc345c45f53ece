import DecoderGIF
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// ``ImageDecodingConformance`` run against the GIF decoder, as a third-party decoder would run it.
@Suite("GIF decoder conformance")
struct GIFConformanceTests {
    static let conformance = ImageDecodingConformance(
        // A GIF's logical screen is declared apart from its frames, so a changed byte there makes a valid file
        // with a screen of millions of pixels: the decoder allocates what the header declares, up to its limit.
        // The suite's bound for a corrupted sample is 2²⁰ pixels; the limit here is the same.
        makeDecoder: { ImageDecoders.GIF(context: $0, configuration: .init(maximumPixelCount: 1 << 20)) },
        samples: [("hopper.gif", 128, 128), ("dispose_prev.gif", 100, 100), ("transparent.gif", 200, 150)].map {
            // The fixtures are committed; a missing one fails the "decodesSamples" check with an empty sample.
            .init(name: $0.0, data: (try? pillow($0.0)) ?? Data(), width: $0.1, height: $0.2)
        })

    @Test(arguments: conformance.checks)
    func conforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.conformance.run(check)
    }
}
