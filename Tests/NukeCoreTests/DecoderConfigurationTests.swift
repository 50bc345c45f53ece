import NukeCore
import Testing

/// The limit checks every codec shares (`ImageDecoderConfiguration`, `AnimatedImageDecoderConfiguration`).
@Suite struct DecoderConfigurationTests {
    private struct Limits: AnimatedImageDecoderConfiguration {
        var maximumPixelCount = 100
        var maximumFrameCount = 3
        var maximumTotalPixelCount = 1_000
    }

    private enum Failure: ImageAnimationLimitError, Equatable {
        case imageTooLarge(width: Int, height: Int, maximumPixelCount: Int)
        case tooManyFrames(maximumFrameCount: Int)
        case animationTooLarge(maximumTotalPixelCount: Int)
    }

    @Test func theDefaultsAreDocumented() {
        #expect(Limits.defaultMaximumPixelCount == 100_000_000)
        #expect(Limits.defaultMaximumFrameCount == 10_000)
        #expect(Limits.defaultMaximumTotalPixelCount == 1_000_000_000)
    }

    @Test func pixelCountAcceptsUpToTheLimitAndRejectsEmptyAndOverflowingSizes() throws {
        let limits = Limits()
        try limits.checkPixelCount(width: 10, height: 10, throwing: Failure.self)
        for (width, height) in [(11, 10), (0, 5), (5, 0), (-1, -1), (Int.max, 2)] {
            #expect(throws: Failure.imageTooLarge(width: width, height: height, maximumPixelCount: 100)) {
                try limits.checkPixelCount(width: width, height: height, throwing: Failure.self)
            }
        }
    }

    @Test func frameCountAcceptsUpToTheLimit() throws {
        let limits = Limits()
        try limits.checkFrameCount(3, throwing: Failure.self)
        #expect(throws: Failure.tooManyFrames(maximumFrameCount: 3)) {
            try limits.checkFrameCount(4, throwing: Failure.self)
        }
    }

    @Test func totalPixelsAddUpToTheLimitAndNoFurther() throws {
        let limits = Limits()
        var total = 0
        for _ in 0..<2 { total = try limits.addingPixels(500, to: total, throwing: Failure.self) }
        #expect(total == 1_000)
        for (pixels, start) in [(1, 1_000), (-1, 0), (Int.max, 1)] {
            #expect(throws: Failure.animationTooLarge(maximumTotalPixelCount: 1_000)) {
                _ = try limits.addingPixels(pixels, to: start, throwing: Failure.self)
            }
        }
    }
}
