public import Foundation
public import NukeCore

/// An `ImageAnimation` over frames held in memory, for tests of animation encoders and of the code that plays or
/// transcodes animations: each frame is returned as given (with its `colorProfile`), in order.
///
/// ```swift
/// let animation = try FrameListAnimation(frames: [red, green], durations: [0.1, 0.2], loopCount: 0)
/// let data = try ImageEncoders.WebP(lossless: true).encode(animation)
/// ```
///
/// A value type; safe to use from any thread.
public struct FrameListAnimation: ImageAnimation {
    /// The frames, all of the canvas size.
    public let frames: [PlatformImage]
    /// How long each frame is shown, in seconds, one per frame.
    public let frameDurations: [TimeInterval]
    /// How many times the animation plays; 0 means forever.
    public let loopCount: Int

    /// Makes an animation of `frames`, shown for `durations` seconds each (one per frame).
    ///
    /// - Throws: ``Error`` when there is no frame, the frames differ in size, or the durations don't match them.
    public init(frames: [PlatformImage], durations: [TimeInterval], loopCount: Int = 0) throws {
        guard let first = frames.first else { throw Error.noFrames }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw Error.framesDifferInSize
        }
        guard durations.count == frames.count else { throw Error.durationCountMismatch }
        self.frames = frames
        self.frameDurations = durations
        self.loopCount = loopCount
    }

    /// Why ``init(frames:durations:loopCount:)`` refused its frames.
    public enum Error: Swift.Error, Sendable, Hashable {
        /// `frames` is empty.
        case noFrames
        /// A frame has another size than the first.
        case framesDifferInSize
        /// There is not one duration per frame.
        case durationCountMismatch
    }

    /// The frames' width.
    public var canvasWidth: Int { frames[0].width }
    /// The frames' height.
    public var canvasHeight: Int { frames[0].height }
    /// The number of frames.
    public var frameCount: Int { frames.count }

    /// An iterator over ``frames``, positioned before the first.
    public func makeFrameIterator() throws -> any ImageAnimationFrameIterator {
        Iterator(frames: frames[...])
    }

    private struct Iterator: ImageAnimationFrameIterator {
        var frames: ArraySlice<PlatformImage>

        mutating func next() throws -> PlatformImage? {
            frames.popFirst()
        }
    }
}
