import DecoderSVG
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// ``ImageDecodingConformance`` run against the SVG decoder, as a third-party decoder would run it.
@Suite("SVG decoder conformance")
struct SVGConformanceTests {
    static let conformance = ImageDecodingConformance(
        makeDecoder: { ImageDecoders.SVG(context: $0) },
        samples: [
            .init(name: "two halves", data: Data(twoHalves.utf8), width: 40, height: 20),
            .init(
                name: "viewBox only",
                data: Data(
                    #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 10"><circle cx="5" cy="5" r="4"/></svg>"#
                        .utf8),
                width: 30, height: 10),
        ])

    @Test(arguments: conformance.checks)
    func conforms(_ check: ImageDecodingConformance.Check) throws {
        try Self.conformance.run(check)
    }
}
