import Foundation
import NukeCore

/// The container-level facts of a GIF file, read by walking its records with giflib and skipping every
/// frame's compressed data (no pixel is decoded). Checks every limit of the configuration on the way, before
/// reading further.
struct GIFScan {
    var screenWidth: Int
    var screenHeight: Int
    var storedLoopCount: Int?
    /// The delay of each complete frame, in hundredths of a second as stored.
    var delays: [Int] = []

    init(bytes: UnsafeRawBufferPointer, configuration: ImageDecoders.GIF.Configuration) throws(ImageDecoders.GIF.Error)
    {
        let decoder = ImageDecoders.GIF(configuration: configuration)
        let reader = try decoder.openReader(bytes)
        screenWidth = reader.screenWidth
        screenHeight = reader.screenHeight
        let screenPixels = screenWidth * screenHeight
        var totalPixels = 0
        while true {
            let frame: GIFFrame?
            do {
                frame = try reader.nextFrame()
                if frame != nil { try reader.skipFrame() }
            } catch {
                // A file cut short or corrupt after complete frames has those frames, as browsers show.
                guard delays.isEmpty else { break }
                throw error
            }
            guard let frame else { break }
            try decoder.checkFrame(frame)
            try configuration.checkFrameCount(delays.count + 1, throwing: ImageDecoders.GIF.Error.self)
            totalPixels = try configuration.addingPixels(
                screenPixels + frame.width * frame.height, to: totalPixels, throwing: ImageDecoders.GIF.Error.self)
            delays.append(frame.delay)
        }
        guard !delays.isEmpty else { throw .invalidData(message: "the file has no image") }
        storedLoopCount = reader.storedLoopCount
    }
}

/// Decodes an animation's frames in order onto one canvas, with its own copy of the data (giflib reads
/// from it for the decoder's lifetime). `deinit` releases the copy.
///
/// The canvas is a ``PlatformImage`` that each frame is returned as: the next frame is drawn through
/// `withUnsafeMutableBytes`, which copies the canvas first only if the caller still holds the previous frame
/// (copy on write). So a pass holds at most two canvases, and one when the caller keeps no frame.
///
/// Not thread-safe: one decoder walks one animation's frames on one thread.
final class GIFCanvasDecoder {
    private let bytes: UnsafeMutableRawBufferPointer
    /// Released before `bytes` in `deinit`: the reader reads them until it is destroyed.
    private var reader: GIFReader?
    private let decoder: ImageDecoders.GIF
    private var canvas: PlatformImage?

    init(data: Data, configuration: ImageDecoders.GIF.Configuration) throws(ImageDecoders.GIF.Error) {
        guard !data.isEmpty else { throw .emptyData }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.copyBytes(to: bytes)
        do {
            decoder = ImageDecoders.GIF(configuration: configuration)
            reader = try decoder.openReader(UnsafeRawBufferPointer(bytes))
        } catch {
            bytes.deallocate()
            throw error
        }
        self.bytes = bytes
    }

    deinit {
        reader = nil
        bytes.deallocate()
    }

    /// Decodes the next frame and returns the canvas, or `nil` at the end of the file.
    func next() throws -> PlatformImage? {
        guard let reader, let frame = try reader.nextFrame() else { return nil }
        try decoder.checkFrame(frame)
        var canvas: PlatformImage
        if let existing = self.canvas {
            canvas = existing
            self.canvas = nil  // One reference fewer: unless the caller kept the last frame, no copy is made.
        } else {
            canvas = try decoder.makeImage(width: reader.screenWidth, height: reader.screenHeight, isOpaque: false) {
                _ in
            }
        }
        try canvas.withUnsafeMutableBytes { pixels in
            guard let base = pixels.baseAddress else { return }
            try reader.draw(frame, into: base)
        }
        self.canvas = canvas
        return canvas
    }
}

/// A pass over an animation's first `frameCount` frames (those its scan found complete).
struct GIFFrameIterator: ImageAnimationFrameIterator {
    let decoder: GIFCanvasDecoder
    let frameCount: Int
    var index = 0

    mutating func next() throws -> PlatformImage? {
        guard index < frameCount else { return nil }
        index += 1
        return try decoder.next()
    }
}
