internal import CWebP
import Foundation
import NukeCore

/// The container-level facts of a WebP file, read with libwebp's demuxer (no pixels are decoded).
struct WebPDemuxInfo {
    var canvasWidth: Int
    var canvasHeight: Int
    var loopCount: Int
    /// Durations in milliseconds, one per frame.
    var frameDurations: [Int]

    init(bytes: UnsafeRawBufferPointer) throws(ImageDecoders.WebP.Error) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .emptyData }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else {
            throw .invalidData(message: "not a complete WebP container (WebPDemux failed)")
        }
        defer { WebPDemuxDelete(demuxer) }
        canvasWidth = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
        canvasHeight = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
        loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        let count = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        var durations: [Int] = []
        durations.reserveCapacity(count)
        var iterator = WebPIterator()
        if WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
            repeat {
                durations.append(Int(iterator.duration))
            } while WebPDemuxNextFrame(&iterator) != 0
            WebPDemuxReleaseIterator(&iterator)
        }
        guard !durations.isEmpty else {
            throw .invalidData(message: "the WebP container has no frames")
        }
        frameDurations = durations
    }
}

/// The one owner of a `WebPAnimDecoder` and of the copy of the data it reads; `deinit` releases both with
/// `WebPAnimDecoderDelete` and the buffer's own deallocation.
///
/// Not thread-safe: one decoder walks one animation's frames on one thread.
final class WebPAnimationDecoder {
    private let decoder: OpaquePointer
    private let bytes: UnsafeMutableRawBufferPointer
    private let width: Int
    private let height: Int

    /// Creates a decoder for an animation whose canvas (already checked against the limits) is
    /// `width`×`height`.
    init(data: Data, width: Int, height: Int) throws(ImageDecoders.WebP.Error) {
        // libwebp keeps pointers into the data for the decoder's lifetime, so it gets a stable copy.
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        _ = data.copyBytes(to: bytes.bindMemory(to: UInt8.self))
        var options = WebPAnimDecoderOptions()
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: data.count)
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            throw .invalidData(message: "libwebp version mismatch")
        }
        options.color_mode = MODE_rgbA
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
            bytes.deallocate()
            throw .invalidData(message: "the animation can't be decoded (WebPAnimDecoderNew failed)")
        }
        // The frames are copied as canvas-sized buffers: the decoder's canvas must be the one checked.
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, Int(info.canvas_width) == width,
            Int(info.canvas_height) == height
        else {
            WebPAnimDecoderDelete(decoder)
            bytes.deallocate()
            throw .invalidData(message: "the animation's canvas doesn't match its header")
        }
        self.decoder = decoder
        self.bytes = bytes
        self.width = width
        self.height = height
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// Decodes the next frame and returns the canvas.
    func next() throws -> PlatformImage {
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw ImageDecoders.WebP.Error.invalidData(
                message: "a frame can't be decoded (WebPAnimDecoderGetNext failed)")
        }
        return try PlatformImage(width: width, height: height) { pixels in
            guard let destination = pixels.baseAddress else { return }
            destination.copyMemory(from: canvas, byteCount: pixels.count)
        }
    }
}
