import DecoderGIF
import Foundation
import NukeCore
import Testing

@Suite("GIF decoder")
struct GIFDecoderTests {
    @Test("matches GIF by its magic bytes only, and register(in:) adds a factory for it")
    func matching() throws {
        let gif = try pillow("hopper.gif")
        #expect(ImageDecoders.GIF(context: context(gif)) != nil)
        #expect(ImageDecoders.GIF(context: context(Data("GIF90a not a gif".utf8))) == nil)
        #expect(ImageDecoders.GIF(context: context(Data([0x89, 0x50, 0x4E, 0x47]))) == nil)

        let registry = ImageDecoderRegistry()
        ImageDecoders.GIF.register(in: registry)
        let decoder = try #require(registry.decoder(for: context(gif)))
        #expect(try decoder.decode(gif).image.width == 128)
        #expect(registry.decoder(for: context(Data("text".utf8))) == nil)
    }

    @Test("a still, opaque GIF decodes to an opaque image; one with a transparent index doesn't")
    func opacity() throws {
        #expect(try ImageDecoders.GIF().decode(try pillow("hopper.gif")).image.isOpaque)
        let transparent = try ImageDecoders.GIF().decode(try pillow("transparent.gif")).image
        #expect(!transparent.isOpaque)
        #expect(transparent.pixel(x: 0, y: 0)?.a == 0)
    }

    @Test("a thumbnail request decodes the full first frame (the pipeline resizes it)")
    func thumbnail() throws {
        let data = try pillow("hopper.gif")
        let decoder = try #require(
            ImageDecoders.GIF(context: context(data, thumbnail: .init(maxPixelSize: 16))))
        let image = try decoder.decode(data).image
        #expect(image.width == 128 && image.height == 128)
    }

    @Test("delays of 0 and 10 ms are shown as 100 ms, as browsers do; longer ones as stored")
    func browserDelays() throws {
        let data = GIFBytes.file(
            width: 2, height: 1,
            GIFBytes.loop(0) + GIFBytes.pixelFrame(left: 0, top: 0, delay: 0)
                + GIFBytes.pixelFrame(left: 1, top: 0, delay: 1) + GIFBytes.pixelFrame(left: 0, top: 0, delay: 2)
                + GIFBytes.pixelFrame(left: 1, top: 0, delay: 50))

        let animation = try ImageDecoders.GIF.Animation(data: data)

        #expect(animation.storedFrameDurations == [0, 0.01, 0.02, 0.5])
        #expect(animation.frameDurations == [0.1, 0.1, 0.02, 0.5])
        #expect(abs(animation.totalDuration - 0.72) < 1e-9)
        #expect(ImageDecoders.GIF.Animation.displayedDuration(hundredths: 3) == 0.03)
    }

    @Test("the loop count is the number of plays: stored repeats + 1, 0 forever, 1 without NETSCAPE2.0")
    func loopCount() throws {
        let frame = GIFBytes.pixelFrame(left: 0, top: 0)
        let forever = try ImageDecoders.GIF.Animation(
            data: GIFBytes.file(width: 1, height: 1, GIFBytes.loop(0) + frame))
        let twice = try ImageDecoders.GIF.Animation(data: GIFBytes.file(width: 1, height: 1, GIFBytes.loop(1) + frame))
        let once = try ImageDecoders.GIF.Animation(data: GIFBytes.file(width: 1, height: 1, frame))

        #expect(forever.loopCount == 0 && forever.storedLoopCount == 0)
        #expect(twice.loopCount == 2 && twice.storedLoopCount == 1)
        #expect(once.loopCount == 1 && once.storedLoopCount == nil)
        // Pillow's duplicate_number_of_loops.gif has two NETSCAPE2.0 extensions: the first one counts.
        #expect(try ImageDecoders.GIF.Animation(data: try pillow("duplicate_number_of_loops.gif")).storedLoopCount == 2)
    }

    @Test("frames past the logical screen are clipped; disposal and transparency composite as a browser shows")
    func clippingAndDisposal() throws {
        // A 2×1 screen: red at (0, 0) kept; blue at (1, 0) cleared to background after it is shown; a frame
        // entirely outside the screen; then blue at (5, 0), outside too.
        let data = GIFBytes.file(
            width: 2, height: 1,
            GIFBytes.pixelFrame(left: 0, top: 0, index: 0, disposal: 1)
                + GIFBytes.pixelFrame(left: 1, top: 0, index: 1, disposal: 2)
                + GIFBytes.pixelFrame(left: 60000, top: 60000, index: 1)
                + GIFBytes.pixelFrame(left: 5, top: 0, index: 1))
        let animation = try ImageDecoders.GIF.Animation(data: data)
        var frames: [[PlatformImage.RGBA?]] = []

        try animation.forEachFrame { frame in
            frames.append([frame.image.pixel(x: 0, y: 0), frame.image.pixel(x: 1, y: 0)])
        }

        let red = PlatformImage.RGBA(r: 255, g: 0, b: 0)
        let blue = PlatformImage.RGBA(r: 0, g: 0, b: 255)
        let clear = PlatformImage.RGBA(r: 0, g: 0, b: 0, a: 0)
        #expect(frames == [[red, clear], [red, blue], [red, clear], [red, clear]])
    }

    @Test("frame(at:) outside the animation throws frameIndexOutOfRange")
    func frameOutOfRange() throws {
        let animation = try ImageDecoders.GIF.Animation(data: try pillow("dispose_prev.gif"))
        #expect(throws: ImageDecoders.GIF.Error.frameIndexOutOfRange(index: 5, frameCount: 5)) {
            try animation.frame(at: 5)
        }
        #expect(throws: ImageDecoders.GIF.Error.frameIndexOutOfRange(index: -1, frameCount: 5)) {
            try animation.frame(at: -1)
        }
    }

    @Test("the animation is an ImageAnimation: one code path plays it")
    func sharedModel() throws {
        let animation: any ImageAnimation = try ImageDecoders.GIF.Animation(data: try pillow("chi.gif"))
        var count = 0
        var timestamp: TimeInterval = 0

        try animation.forEachFrame { frame in
            #expect(frame.index == count && abs(frame.timestamp - timestamp) < 1e-9)
            #expect(frame.image.width == 320 && frame.image.height == 240)
            count += 1
            timestamp += frame.duration
        }

        #expect(count == 31 && animation.isAnimated && animation.loopCount == 0)
        var iterator = try animation.makeFrameIterator()
        for _ in 0..<31 { #expect(try iterator.next() != nil) }
        #expect(try iterator.next() == nil)
    }

    @Test("frames the caller keeps are values: drawing the next frame never changes them")
    func keptFramesStayPut() throws {
        let animation = try ImageDecoders.GIF.Animation(data: try pillow("dispose_prev.gif"))
        var kept: [PlatformImage] = []

        try animation.forEachFrame { kept.append($0.image) }

        #expect(kept.count == 5)
        for (index, image) in kept.enumerated() {
            #expect(fnv1a(image) == fnv1a(try animation.frame(at: index)), "frame \(index)")
        }
        #expect(Set(kept.map(fnv1a)).count > 1)
    }

    @Test("a file cut short after complete frames has those frames")
    func truncatedAnimation() throws {
        let data = try pillow("dispose_prev.gif")
        let whole = try ImageDecoders.GIF.Animation(data: data)

        let cut = try ImageDecoders.GIF.Animation(data: data.prefix(data.count * 3 / 4))

        #expect(cut.frameCount > 0 && cut.frameCount < whole.frameCount)
        #expect(fnv1a(try cut.frame(at: cut.frameCount - 1)) == fnv1a(try whole.frame(at: cut.frameCount - 1)))
    }
}
