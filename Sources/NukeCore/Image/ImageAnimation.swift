public import Foundation

/// The frames and timing of an animated image — what an animated WebP, GIF or AVIF sequence holds — so that
/// an app or tool plays any animated format with one code path.
///
/// Creating an animation reads only the container: canvas size, frame count, loop count and durations; no
/// pixels are decoded. Frames are decoded on demand, composited onto the canvas as a viewer shows them
/// (disposal and blending applied), as premultiplied RGBA the size of the canvas. A still image is an
/// animation of one frame.
///
/// ```swift
/// func play(_ animation: any ImageAnimation) throws {
///     try animation.forEachFrame { frame in
///         show(frame.image, for: frame.duration)
///     }
/// }
/// ```
///
/// ## Memory
/// An iterator (``makeFrameIterator()``) keeps one canvas it composites into and returns it (or a copy of it)
/// per frame; iterating holds at most two canvases plus the frames the caller keeps (and, for a format with
/// "restore to previous" disposal, the saved area of one frame). A ``PlatformImage`` is copy-on-write, so an
/// iterator may return its canvas itself and draw the next frame through `withUnsafeMutableBytes`, which
/// copies only while the caller still holds the previous frame.
///
/// ## Contract
/// Conforming types are values that are safe to use from any thread; each iterator is used on one thread at
/// a time. Decoding errors are the codec's own typed errors.
public protocol ImageAnimation: Sendable {
    /// The canvas width in pixels; every frame image has this width.
    var canvasWidth: Int { get }
    /// The canvas height in pixels; every frame image has this height.
    var canvasHeight: Int { get }
    /// The number of frames (1 for a still image).
    var frameCount: Int { get }
    /// How many times the animation plays; 0 means forever.
    var loopCount: Int { get }
    /// How long each frame is shown, in seconds, one per frame (the format's documentation says whether very
    /// short durations are taken as stored or as browsers show them).
    var frameDurations: [TimeInterval] { get }

    /// Returns an iterator positioned before the first frame. Each call starts a new, independent pass.
    func makeFrameIterator() throws -> any ImageAnimationFrameIterator

    /// Decodes the canvas as shown at frame `index`. Frames are composited from the start, so the cost grows
    /// with `index`; to show every frame use ``forEachFrame(_:)``.
    ///
    /// The default throws ``ImageAnimationError/frameIndexOutOfRange(index:frameCount:)`` for an index outside
    /// the animation.
    func frame(at index: Int) throws -> PlatformImage

    /// Decodes every frame in order and passes it to `body`; stops early if `body` throws.
    func forEachFrame(_ body: (ImageAnimationFrame) throws -> Void) throws
}

/// A pass over the composited frames of an ``ImageAnimation``, in order.
public protocol ImageAnimationFrameIterator {
    /// Decodes the next frame and returns the canvas after drawing it (a value the caller owns: drawing the next
    /// frame never changes it), or `nil` after the last frame.
    mutating func next() throws -> PlatformImage?
}

/// One decoded frame of an ``ImageAnimation``.
public struct ImageAnimationFrame: Sendable {
    /// The frame's index, from zero.
    public var index: Int
    /// The canvas after drawing this frame.
    public var image: PlatformImage
    /// How long the frame is shown, in seconds.
    public var duration: TimeInterval
    /// When the frame is first shown, in seconds from the start of the animation.
    public var timestamp: TimeInterval

    /// Creates a frame.
    public init(index: Int, image: PlatformImage, duration: TimeInterval, timestamp: TimeInterval) {
        self.index = index
        self.image = image
        self.duration = duration
        self.timestamp = timestamp
    }
}

/// Errors of the shared animation code (codecs throw their own errors for bad data).
public enum ImageAnimationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A frame index outside the animation.
    case frameIndexOutOfRange(index: Int, frameCount: Int)
    /// The iterator ended before ``ImageAnimation/frameCount`` frames (the data changed or lied).
    case missingFrame(index: Int)

    public var description: String {
        switch self {
        case let .frameIndexOutOfRange(index, frameCount):
            "Frame \(index) requested from an animation of \(frameCount) frames"
        case let .missingFrame(index):
            "The animation ended before frame \(index)"
        }
    }
}

extension ImageAnimation {
    /// Whether there is more than one frame.
    public var isAnimated: Bool { frameCount > 1 }

    /// The length of one loop, in seconds.
    public var totalDuration: TimeInterval { frameDurations.reduce(0, +) }

    public func frame(at index: Int) throws -> PlatformImage {
        guard index >= 0, index < frameCount else {
            throw ImageAnimationError.frameIndexOutOfRange(index: index, frameCount: frameCount)
        }
        return try compositedFrame(at: index)
    }

    /// Decodes frames 0 through `index` with a new iterator and returns the last.
    ///
    /// - Throws: ``ImageAnimationError/frameIndexOutOfRange(index:frameCount:)`` for a negative `index`,
    ///   ``ImageAnimationError/missingFrame(index:)`` if the iterator ends before `index`, or a decoding error.
    public func compositedFrame(at index: Int) throws -> PlatformImage {
        guard index >= 0 else { throw ImageAnimationError.frameIndexOutOfRange(index: index, frameCount: frameCount) }
        var iterator = try makeFrameIterator()
        var image: PlatformImage?
        for current in 0...index {
            image = nil  // The previous frame goes before the next is decoded: two canvases at most.
            image = try iterator.next()
            guard image != nil else { throw ImageAnimationError.missingFrame(index: current) }
        }
        guard let image else { throw ImageAnimationError.missingFrame(index: index) }
        return image
    }

    public func forEachFrame(_ body: (ImageAnimationFrame) throws -> Void) throws {
        var iterator = try makeFrameIterator()
        var timestamp: TimeInterval = 0
        for index in 0..<frameCount {
            guard let image = try iterator.next() else { throw ImageAnimationError.missingFrame(index: index) }
            let duration = index < frameDurations.count ? frameDurations[index] : 0
            try body(ImageAnimationFrame(index: index, image: image, duration: duration, timestamp: timestamp))
            timestamp += duration
        }
    }
}
