import Foundation
import NukeCore
import NukeTestKit
import Testing

@testable import ThirdPartyApp

/// A 16×8 binary PPM whose pixels encode their index.
nonisolated let sample = ppm(width: 16, height: 8)

nonisolated func ppm(width: Int, height: Int) -> Data {
    var data = Data("P6\n\(width) \(height)\n255\n".utf8)
    for index in 0..<(width * height) {
        data.append(contentsOf: [UInt8(index % 256), UInt8(index / 256 % 256), 7])
    }
    return data
}

// Plugins.md shows these lines (Tests/IntegrationTests/PluginsGuideTests.swift checks it): under default main-actor
// isolation a global `let` would be isolated to the main actor, which `@Test(arguments:)` can't read.
// PLUGINS-DECODER-CHECK-BEGIN
nonisolated let conformance = ImageDecodingConformance(
    makeDecoder: { PPMDecoder(context: $0) },
    samples: [.init(name: "16×8", data: sample, width: 16, height: 8)])

@Test(arguments: conformance.checks)
func decoderConforms(_ check: ImageDecodingConformance.Check) throws {
    try conformance.run(check)
}
// PLUGINS-DECODER-CHECK-END
