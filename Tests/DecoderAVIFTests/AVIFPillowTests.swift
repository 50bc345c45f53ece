import DecoderAVIF
import Foundation
import NukeCore
import Testing

/// The AVIF files of Pillow's test suite, decoded by libavif through DecoderAVIF and by Pillow 11.3.0 (its
/// wheel's own libavif build): sizes after orientation, frame counts and a 16×16 grid of samples per frame must
/// match within 2 levels per channel (decoders' YUV-to-RGB rounding may differ; here they agree exactly).
@Suite("AVIF decoder against Pillow")
struct AVIFPillowTests {
    /// Pillow turns this file by the orientation in its XMP metadata (3, 180°); browsers, and DecoderAVIF,
    /// take orientation only from the irot/imir properties, so the two images are each other turned by 180°.
    static let xmpOriented = "xmp_tags_orientation.avif"

    static let names = AVIFExpectation.all.keys.sorted()

    @Test("the expectations and fixtures are there")
    func expectationsLoaded() throws {
        #expect(Self.names.count == 16)
        for name in Self.names { _ = try pillow(name) }
    }

    @Test("size, orientation, frames and pixels match Pillow", arguments: names)
    func matchesPillow(_ name: String) throws {
        let expected = try #require(AVIFExpectation.all[name])
        let data = try pillow(name)
        #expect(AssetType(data) == .avif)

        let animation = try ImageDecoders.AVIF.Animation(data: data)

        #expect([animation.canvasWidth, animation.canvasHeight] == expected.size)
        #expect(animation.frameCount == expected.frames)
        // Pillow reports no duration for the first frame of a sequence; the others must agree.
        let durations = animation.frameDurations.map { Int(($0 * 1000).rounded()) }
        #expect(durations.dropFirst() == expected.durations.dropFirst())
        try animation.forEachFrame { frame in
            let difference = expected.largestDifference(
                frame.image, frame: frame.index, rotated180: name == Self.xmpOriented)
            #expect(difference <= 2, "\(name) frame \(frame.index): largest difference \(difference)")
        }
    }
}
