import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite struct FrameListAnimationTests {
    @Test func framesComeBackInOrderWithTheirDurationsAndProfiles() throws {
        // Given two 2×1 frames, the second with a profile
        let red = try PlatformImage(width: 2, height: 1, rgba: [255, 0, 0, 255, 255, 0, 0, 255])
        var blue = try PlatformImage(width: 2, height: 1, rgba: [0, 0, 255, 255, 0, 0, 255, 255])
        blue.colorProfile = .icc(Data([1, 2, 3]))

        // When they make an animation, walked twice (each pass starts from the first frame)
        let animation = try FrameListAnimation(frames: [red, blue], durations: [0.1, 0.25], loopCount: 3)
        var seen: [ImageAnimationFrame] = []
        try animation.forEachFrame { seen.append($0) }
        try animation.forEachFrame { _ in }

        // Then it has their size, count and timing, and gives them back as they were
        #expect((animation.canvasWidth, animation.canvasHeight, animation.frameCount) == (2, 1, 2))
        #expect(animation.loopCount == 3 && animation.frameDurations == [0.1, 0.25])
        #expect(seen.map(\.image) == [red, blue])
        #expect(seen.map(\.timestamp) == [0, 0.1])
        #expect(try animation.frame(at: 1).colorProfile == .icc(Data([1, 2, 3])))
    }

    @Test func framesThatCantMakeAnAnimationAreRefused() throws {
        let small = try PlatformImage(width: 1, height: 1)
        let large = try PlatformImage(width: 2, height: 2)

        #expect(throws: FrameListAnimation.Error.noFrames) {
            try FrameListAnimation(frames: [], durations: [])
        }
        #expect(throws: FrameListAnimation.Error.framesDifferInSize) {
            try FrameListAnimation(frames: [small, large], durations: [1, 1])
        }
        #expect(throws: FrameListAnimation.Error.durationCountMismatch) {
            try FrameListAnimation(frames: [small], durations: [1, 1])
        }
    }
}
