import Foundation
import NukeCore
import Testing

/// An animation of solid frames whose red channel is the frame index; `producedFrames` frames are available.
private struct CountingAnimation: ImageAnimation {
    var canvasWidth = 3
    var canvasHeight = 2
    var frameCount = 4
    var loopCount = 0
    var frameDurations: [TimeInterval] = [0.1, 0.2, 0.3, 0.4]
    var producedFrames = 4

    struct Iterator: ImageAnimationFrameIterator {
        let animation: CountingAnimation
        var index = 0

        mutating func next() throws -> PlatformImage? {
            guard index < animation.producedFrames else { return nil }
            defer { index += 1 }
            let pixel: [UInt8] = [UInt8(index), 0, 0, 255]
            return try PlatformImage(
                width: animation.canvasWidth, height: animation.canvasHeight,
                rgba: Array([[UInt8]](repeating: pixel, count: 6).joined()))
        }
    }

    func makeFrameIterator() throws -> any ImageAnimationFrameIterator { Iterator(animation: self) }
}

@Suite("ImageAnimation")
struct ImageAnimationTests {
    @Test("frame(at:) composites from the start and returns the frame asked for")
    func frameAt() throws {
        let animation = CountingAnimation()

        #expect(try animation.frame(at: 2).pixel(x: 1, y: 1)?.r == 2)
        #expect(animation.isAnimated)
        #expect(abs(animation.totalDuration - 1.0) < 1e-9)
    }

    @Test("an index outside the animation throws frameIndexOutOfRange")
    func outOfRange() {
        #expect(throws: ImageAnimationError.frameIndexOutOfRange(index: 4, frameCount: 4)) {
            try CountingAnimation().frame(at: 4)
        }
        #expect(throws: ImageAnimationError.frameIndexOutOfRange(index: -1, frameCount: 4)) {
            try CountingAnimation().frame(at: -1)
        }
        #expect(throws: ImageAnimationError.frameIndexOutOfRange(index: -1, frameCount: 4)) {
            try CountingAnimation().compositedFrame(at: -1)
        }
    }

    @Test("forEachFrame passes every frame with its duration and timestamp")
    func forEachFrame() throws {
        var frames: [ImageAnimationFrame] = []

        try CountingAnimation().forEachFrame { frames.append($0) }

        #expect(frames.map(\.index) == [0, 1, 2, 3])
        #expect(frames.map { $0.image.pixel(x: 0, y: 0)?.r } == [0, 1, 2, 3])
        #expect(frames.map(\.duration) == [0.1, 0.2, 0.3, 0.4])
        let expected: [TimeInterval] = [0, 0.1, 0.3, 0.6]
        #expect(zip(frames.map(\.timestamp), expected).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test("an iterator that ends early is reported, not padded")
    func missingFrame() {
        var animation = CountingAnimation()
        animation.producedFrames = 2

        #expect(throws: ImageAnimationError.missingFrame(index: 2)) { try animation.forEachFrame { _ in } }
        #expect(throws: ImageAnimationError.missingFrame(index: 2)) { try animation.frame(at: 3) }
    }
}
