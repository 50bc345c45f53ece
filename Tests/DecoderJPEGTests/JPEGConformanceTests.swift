import DecoderJPEG
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// ``ImageDecodingConformance`` run against the JPEG decoder, as a third-party decoder would run it.
@Suite("JPEG decoder conformance")
struct JPEGConformanceTests {
    static let conformance = ImageDecodingConformance(
        makeDecoder: { ImageDecoders.JPEG(context: $0) },
        samples: [("baseline.jpg", 64, 48), ("progressive.jpg", 64, 48), ("orientation-6.jpg", 64, 48)].map {
            // The fixtures are committed; a missing one fails the "decodesSamples" check with an empty sample.
            .init(name: $0.0, data: (try? fixture($0.0)) ?? Data(), width: $0.1, height: $0.2)
        })

    @Test(arguments: conformance.checks)
    func conforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.conformance.run(check)
    }
}
