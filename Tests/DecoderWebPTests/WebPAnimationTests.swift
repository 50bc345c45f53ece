import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// `animated.webp`: a 24×16 canvas, loop count 3, frames red (100 ms), green (200 ms) and blue at alpha 128
/// (300 ms), each covering the canvas.
@Suite("Animated WebP")
struct WebPAnimationTests {
    @Test("decode returns the first frame and keeps the original data")
    func firstFrame() throws {
        let data = try fixture("animated.webp")

        let container = try ImageDecoders.WebP().decode(data)

        #expect(container.data == data)
        #expect(container.type == .webp)
        #expect(container.image.width == 24 && container.image.height == 16)
        #expect(container.image.pixel(x: 5, y: 5) == PlatformImage.RGBA(r: 255, g: 0, b: 0, a: 255))
    }

    @Test("Animation reads the frame count, loop count and durations")
    func properties() throws {
        let animation = try ImageDecoders.WebP.Animation(data: try fixture("animated.webp"))

        #expect(animation.frameCount == 3)
        #expect(animation.loopCount == 3)
        #expect(animation.frameDurations == [0.1, 0.2, 0.3])
        #expect(abs(animation.totalDuration - 0.6) < 1e-9)
        #expect(animation.canvasWidth == 24 && animation.canvasHeight == 16)
    }

    @Test("decodes any frame, composited on the canvas")
    func anyFrame() throws {
        let animation = try ImageDecoders.WebP.Animation(data: try fixture("animated.webp"))

        #expect(try animation.frame(at: 1).pixel(x: 3, y: 3) == PlatformImage.RGBA(r: 0, g: 255, b: 0, a: 255))
        // The third frame replaces the canvas (no blending with the green frame) at alpha 128, premultiplied.
        let third = try #require(try animation.frame(at: 2).pixel(x: 3, y: 3))
        #expect(ImageComparison.isClose(third, to: .init(r: 0, g: 0, b: 128, a: 128), tolerance: 1))
        #expect(throws: ImageDecoders.WebP.Error.frameIndexOutOfRange(index: 3, frameCount: 3)) {
            try animation.frame(at: 3)
        }
    }

    @Test("forEachFrame walks all frames in order with timestamps")
    func allFrames() throws {
        let animation = try ImageDecoders.WebP.Animation(data: try fixture("animated.webp"))
        var frames: [ImageDecoders.WebP.Animation.Frame] = []

        try animation.forEachFrame { frames.append($0) }

        #expect(frames.map(\.index) == [0, 1, 2])
        #expect(frames.map(\.timestamp).enumerated().allSatisfy { abs($1 - [0, 0.1, 0.3][$0]) < 1e-9 })
        #expect(frames.map { $0.image.pixel(x: 0, y: 0)?.g } == [0, 255, 0])
    }

    @Test("a still WebP is an animation of one frame")
    func still() throws {
        let animation = try ImageDecoders.WebP.Animation(data: try fixture("lossy.webp"))
        #expect(animation.frameCount == 1 && animation.loopCount == 1)
        #expect(try animation.frame(at: 0).width == 64)
    }

    @Test("an animated file ignores the thumbnail and produces no previews")
    func animatedThumbnailAndPreviews() throws {
        let data = try fixture("animated.webp")
        let decoder = try #require(ImageDecoders.WebP(context: context(data, thumbnail: .init(maxPixelSize: 8))))

        #expect(try decoder.decode(data).image.width == 24)
        #expect((1...data.count).allSatisfy { decoder.decodePartiallyDownloadedData(data.prefix($0)) == nil })
    }
}

@Suite("Animated WebP as an ImageAnimation")
struct WebPImageAnimationTests {
    @Test("the shared model gives the same frames and timing as the WebP API")
    func sharedModel() throws {
        let webp = try ImageDecoders.WebP.Animation(data: try fixture("animated.webp"))
        let animation: any ImageAnimation = webp

        var greens: [UInt8?] = []
        try animation.forEachFrame { greens.append($0.image.pixel(x: 0, y: 0)?.g) }

        #expect(animation.frameCount == 3 && animation.loopCount == 3)
        #expect(animation.frameDurations == webp.frameDurations)
        #expect(greens == [0, 255, 0])
        #expect(try animation.frame(at: 1) == webp.frame(at: 1))
        var iterator = try animation.makeFrameIterator()
        for _ in 0..<3 { #expect(try iterator.next() != nil) }
        #expect(try iterator.next() == nil)
    }
}
