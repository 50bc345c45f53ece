import Foundation
import Testing

@testable import NukeCore

/// `PlatformImage.resampled(toWidth:height:from:)`: an exact size from a region, in one pass.
@Suite struct ResampledTests {
    /// 40×20: left half red, right half blue.
    static func halves() throws -> PlatformImage {
        var rgba: [UInt8] = []
        for _ in 0..<20 {
            for x in 0..<40 { rgba += x < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        }
        return try PlatformImage(width: 40, height: 20, rgba: rgba)
    }

    @Test func stretchesARegionToTheSize() throws {
        let image = try Self.halves()

        let red = try image.resampled(toWidth: 30, height: 50, from: CGRect(x: 0, y: 0, width: 15, height: 20))
        let both = try image.resampled(toWidth: 8, height: 3)
        let same = try image.resampled(toWidth: 40, height: 20)

        #expect((red.width, red.height) == (30, 50))
        #expect(red.pixel(x: 29, y: 49) == PlatformImage.RGBA(r: 255, g: 0, b: 0, a: 255))
        #expect((both.width, both.height) == (8, 3))
        #expect(both.pixel(x: 0, y: 1)?.r == 255 && both.pixel(x: 7, y: 1)?.b == 255)
        #expect(same == image)
    }

    @Test func wrongSizesAndRegionsAreTypedErrors() throws {
        let image = try Self.halves()

        #expect(throws: ImageProcessingError.invalidTargetSize(width: 0, height: 5)) {
            try image.resampled(toWidth: 0, height: 5)
        }
        #expect(throws: ImageProcessingError.outputTooLarge(width: 100_000, height: 100_000)) {
            try image.resampled(toWidth: 100_000, height: 100_000)
        }
        for rect in [
            CGRect(x: -1, y: 0, width: 10, height: 10), CGRect(x: 35, y: 0, width: 10, height: 10),
            CGRect(x: 0, y: 0, width: 0, height: 10),
        ] {
            #expect(throws: ImageProcessingError.cropRectOutsideImage(rect)) {
                try image.resampled(toWidth: 5, height: 5, from: rect)
            }
        }
        // NaN equals nothing, so the case is matched without its payload.
        #expect {
            try image.resampled(toWidth: 5, height: 5, from: CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10))
        } throws: { error in
            if case .cropRectOutsideImage = error as? ImageProcessingError { true } else { false }
        }
    }
}
