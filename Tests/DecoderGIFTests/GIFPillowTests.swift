import DecoderGIF
import Foundation
import NukeCore
import Testing

/// What Pillow 10.4.0 decodes from one of its test GIFs (see `scripts/make-gif-expectations.py`).
struct PillowExpectation: Decodable, Sendable {
    struct Frame: Decodable, Sendable {
        /// Run-length encoded RGBA: `[count, "rrggbbaa"]` pairs.
        var runs: [Run]?
        var fnv1a: String?
    }

    struct Run: Decodable, Sendable {
        var count: Int
        var pixel: PlatformImage.RGBA

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            count = try container.decode(Int.self)
            let hex = try container.decode(String.self)
            guard let value = UInt32(hex, radix: 16) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a pixel: \(hex)")
            }
            pixel = .init(
                r: UInt8(value >> 24), g: UInt8(value >> 16 & 0xFF), b: UInt8(value >> 8 & 0xFF),
                a: UInt8(value & 0xFF))
        }
    }

    var size: [Int]?
    var frames: Int?
    var loop: Int?
    var durations: [Int]?
    var pixels: [Frame]?
    var error: String?

    static let all: [String: PillowExpectation] = {
        guard let data = try? fixture("pillow-expected.json") else { return [:] }
        return (try? JSONDecoder().decode([String: PillowExpectation].self, from: data)) ?? [:]
    }()
}

/// The GIFs of Pillow's test suite, decoded by giflib through DecoderGIF and by Pillow's own GIF decoder: the
/// frame count, stored loop count and delays must be equal, and every pixel of every frame must be equal
/// (tolerance 0: GIF is lossless and both composite palette colours exactly), except where the two decoders
/// knowingly differ (below).
@Suite("GIF decoder against Pillow")
struct GIFPillowTests {
    /// Pillow fills a frame disposed "to background" with the background colour (here opaque black); browsers,
    /// and DecoderGIF, clear it to transparent.
    static let backgroundFilled: Set<String> = ["dispose_bgnd.gif", "dispose_bgnd_rgba.gif"]
    /// Pillow's decoder accepts an LZW minimum code size of 11 (issue_2811.gif); giflib accepts at most 8.
    static let rejectedByGiflib: Set<String> = ["issue_2811.gif"]

    static let decodable = PillowExpectation.all.filter { $0.value.error == nil && !rejectedByGiflib.contains($0.key) }
        .keys.sorted()

    @Test("the expectations and fixtures are there")
    func expectationsLoaded() throws {
        #expect(PillowExpectation.all.count == 36)
        #expect(Self.decodable.count == 32)
        for name in PillowExpectation.all.keys { _ = try pillow(name) }
    }

    @Test("frames, loop count, delays and every pixel match Pillow", arguments: decodable)
    func matchesPillow(_ name: String) throws {
        let expected = try #require(PillowExpectation.all[name])
        let data = try pillow(name)

        let animation = try ImageDecoders.GIF.Animation(data: data)

        #expect(AssetType(data) == .gif)
        #expect([animation.canvasWidth, animation.canvasHeight] == expected.size)
        #expect(animation.frameCount == expected.frames)
        #expect(animation.storedLoopCount == expected.loop)
        #expect(animation.storedFrameDurations.map { Int(($0 * 1000).rounded()) } == expected.durations)
        var backgroundDifferences = 0
        try animation.forEachFrame { frame in
            let reference = try #require(expected.pixels?[frame.index])
            if let hash = reference.fnv1a {
                #expect(fnv1a(frame.image) == hash, "\(name) frame \(frame.index)")
                return
            }
            var index = 0
            var mismatches = 0
            for run in reference.runs ?? [] {
                for _ in 0..<run.count {
                    let ours = frame.image.pixel(x: index % animation.canvasWidth, y: index / animation.canvasWidth)
                    index += 1
                    guard ours != run.pixel else { continue }
                    if Self.backgroundFilled.contains(name), ours == .init(r: 0, g: 0, b: 0, a: 0),
                        run.pixel == .init(r: 0, g: 0, b: 0, a: 255)
                    {
                        backgroundDifferences += 1
                    } else {
                        mismatches += 1
                    }
                }
            }
            #expect(index == animation.canvasWidth * animation.canvasHeight)
            #expect(mismatches == 0, "\(name) frame \(frame.index): \(mismatches) pixels differ from Pillow")
        }
        #expect((backgroundDifferences > 0) == Self.backgroundFilled.contains(name))
    }

    @Test("decode returns the first frame Pillow shows, keeping the data", arguments: decodable)
    func firstFrame(_ name: String) throws {
        let data = try pillow(name)
        let decoder = try #require(ImageDecoders.GIF(context: context(data)))

        let container = try decoder.decode(data)

        #expect(container.type == .gif)
        #expect(container.data == data)
        let frame = try ImageDecoders.GIF.Animation(data: data).frame(at: 0)
        #expect(fnv1a(container.image) == fnv1a(frame))
        // Marked opaque only when every pixel is.
        let allOpaque = container.image.withUnsafeBytes { bytes in
            stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 }
        }
        #expect(!container.image.isOpaque || allOpaque)
    }

    @Test("a file giflib can't decode throws a typed error with giflib's message")
    func giflibRejects() throws {
        let error = #expect(throws: ImageDecoders.GIF.Error.self) {
            try ImageDecoders.GIF().decode(try pillow("issue_2811.gif"))
        }
        #expect(error?.description.hasPrefix("GIF decoding failed: ") == true)
    }

    @Test("the files Pillow rejects are rejected or clipped, never trusted")
    func pillowRejects() throws {
        // A 32×32 screen with a frame of 65535×65535 pixels whose data is missing.
        #expect(throws: ImageDecoders.GIF.Error.self) {
            try ImageDecoders.GIF().decode(try pillow("decompression_bomb.gif"))
        }
        // A 100×100 screen with a second frame placed tens of thousands of pixels outside it: clipped away.
        let extents = try ImageDecoders.GIF.Animation(data: try pillow("decompression_bomb_extents.gif"))
        #expect(extents.frameCount == 2)
        try extents.forEachFrame { #expect($0.image.width == 100 && $0.image.height == 100) }
        // A logical screen of width 0.
        #expect(throws: ImageDecoders.GIF.Error.invalidData(message: "the logical screen is 0×32 pixels")) {
            try ImageDecoders.GIF().decode(try pillow("zero_width.gif"))
        }
    }
}
