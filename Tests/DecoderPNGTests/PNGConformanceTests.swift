import DecoderPNG
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// ``ImageDecodingConformance`` run against the PNG decoder, as a third-party decoder would run it.
@Suite("PNG decoder conformance")
struct PNGConformanceTests {
    static let conformance = ImageDecodingConformance(
        makeDecoder: { ImageDecoders.PNG(context: $0) },
        samples: ["rgba8.png", "palette2-trns-interlaced.png", "gray16.png"].map { name in
            // The fixtures are committed; a missing one fails the "decodesSamples" check with an empty sample.
            .init(name: name, data: (try? fixture(name)) ?? Data(), width: 13, height: 11)
        })

    @Test(arguments: conformance.checks)
    func conforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.conformance.run(check)
    }
}
