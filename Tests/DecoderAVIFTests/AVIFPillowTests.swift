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

    @Test("a still whose brands are only the generic HEIF ones is still AVIF, by its AV1 item", arguments: names)
    func genericBrandsOnly(_ name: String) throws {
        // Given the file with every AVIF brand in `ftyp` replaced by the generic `miaf`
        var data = try pillow(name)
        let ftypEnd = Int(data[3])  // ftyp: size (< 256 here), 'ftyp', major, minor version, compatible brands.
        for offset in stride(from: 8, to: ftypEnd, by: 4) where offset != 12 {
            if ["avif", "avis"].contains(String(decoding: data[offset..<(offset + 4)], as: UTF8.self)) {
                data.replaceSubrange(offset..<(offset + 4), with: Data(offset == 8 ? "mif1".utf8 : "miaf".utf8))
            }
        }

        // Then the item types say AV1 (a sequence's `meta`, if any, names its cover image; without one it is
        // unknown)
        let type = AssetType(data)
        if name.hasSuffix(".avifs") {
            #expect(type == .avif || type == nil)
        } else {
            #expect(type == .avif)
        }
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
