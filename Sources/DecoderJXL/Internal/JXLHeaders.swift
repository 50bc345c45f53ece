internal import CJXL
import Foundation
import NukeCore

/// What the headers of a JPEG XL file say, read without decoding a pixel, with the limits checked.
struct JXLHeaders {
    /// The most extra channels (alpha, depth, spot colours, …) a file may have. libjxl decodes every channel of a
    /// frame, each a plane of the frame's size, so the channel count multiplies the memory a pixel costs: the
    /// pixel limit alone would let a small file of hundreds of constant channels take gigabytes.
    static let maximumExtraChannelCount = 8

    /// The displayed size (orientation applied).
    let width: Int
    let height: Int
    let hasAlpha: Bool
    /// Whether the image has one colour channel (grey); it is decoded to RGB all the same.
    let isGray: Bool
    /// Whether the file's alpha is associated (the colours are premultiplied) — libjxl returns them as stored.
    let isAlphaPremultiplied: Bool
    /// The bits per sample of the colour channels as coded (decoded to 8).
    let bitDepth: Int
    let isAnimated: Bool
    /// How many times the animation plays (0: forever); 1 for a still image.
    let loopCount: Int
    /// The duration of each displayed frame in seconds; `nil` until ``readingFrameDurations(bytes:configuration:)``.
    let frameDurations: [TimeInterval]?

    /// Reads the basic info and walks every frame header of the codestream, uncomposited (`coalescing` off), so
    /// that each layer's own size is seen: the image and every layer must be within the pixel limit, and the
    /// file within the frame limit, before any pixel is decoded. The walk skips the frames' data (libjxl jumps
    /// over each frame by its table of contents).
    ///
    /// `isPartial`: the bytes are a download in progress; the walk stops at the first frame whose data hasn't
    /// arrived yet (every frame the pixel pass can reach in these bytes has been checked).
    init(
        bytes: UnsafeRawBufferPointer, configuration: ImageDecoders.JXL.Configuration, isPartial: Bool = false
    ) throws(ImageDecoders.JXL.Error) {
        let handle = try JXLDecoderHandle(
            bytes: bytes, events: [JXL_DEC_BASIC_INFO, JXL_DEC_FRAME], coalescing: false, isPartial: isPartial)
        var info: JxlBasicInfo?
        var layers = 0
        while true {
            switch try handle.next(reading: info == nil ? "the header" : "a frame header") {
            case JXL_DEC_BASIC_INFO:
                let basic = try handle.basicInfo()
                try configuration.checkPixelCount(
                    width: Int(basic.xsize), height: Int(basic.ysize), throwing: ImageDecoders.JXL.Error.self)
                guard basic.num_extra_channels <= Self.maximumExtraChannelCount else {
                    throw .invalidData(
                        message: "the image has \(basic.num_extra_channels) extra channels, more than the "
                            + "\(Self.maximumExtraChannelCount) this decoder accepts")
                }
                info = basic
            case JXL_DEC_FRAME:
                let header = try handle.frameHeader()
                let layer = header.layer_info
                try configuration.checkPixelCount(
                    width: Int(layer.xsize), height: Int(layer.ysize), throwing: ImageDecoders.JXL.Error.self)
                layers += 1
                try configuration.checkFrameCount(layers, throwing: ImageDecoders.JXL.Error.self)
                if header.is_last != JXL_FALSE, let info {
                    self.init(info: info)
                    return
                }
            case JXL_DEC_SUCCESS:
                guard let info, layers > 0 else { throw .invalidData(message: "the file has no image") }
                self.init(info: info)
                return
            case JXL_DEC_NEED_MORE_INPUT:
                guard let info, layers > 0 else { throw .truncatedData }
                self.init(info: info)
                return
            default:
                continue
            }
        }
    }

    private init(info: JxlBasicInfo, frameDurations: [TimeInterval]? = nil) {
        width = Int(info.xsize)
        height = Int(info.ysize)
        hasAlpha = info.alpha_bits > 0
        isGray = info.num_color_channels == 1
        isAlphaPremultiplied = info.alpha_premultiplied != JXL_FALSE
        bitDepth = Int(info.bits_per_sample)
        isAnimated = info.have_animation != JXL_FALSE
        loopCount = isAnimated ? Int(clamping: info.animation.num_loops) : 1
        self.frameDurations = frameDurations
    }

    /// These headers with the duration of each displayed frame: a second walk, composited as frames are shown,
    /// still without decoding pixels; the frame count and total pixels are checked against `configuration`.
    func readingFrameDurations(
        bytes: UnsafeRawBufferPointer, configuration: ImageDecoders.JXL.Configuration
    ) throws(ImageDecoders.JXL.Error) -> JXLHeaders {
        let handle = try JXLDecoderHandle(bytes: bytes, events: [JXL_DEC_BASIC_INFO, JXL_DEC_FRAME])
        var info: JxlBasicInfo?
        var durations: [TimeInterval] = []
        var total = 0
        while true {
            switch try handle.next(reading: "a frame header") {
            case JXL_DEC_BASIC_INFO:
                info = try handle.basicInfo()
            case JXL_DEC_FRAME:
                guard let info else { throw .invalidData(message: "a frame came before the header") }
                let header = try handle.frameHeader()
                let ticks = Double(header.duration)
                let animation = info.animation
                // A tick lasts tps_denominator / tps_numerator seconds.
                let seconds =
                    isAnimated && animation.tps_numerator > 0
                    ? ticks * Double(animation.tps_denominator) / Double(animation.tps_numerator) : 0
                durations.append(seconds.isFinite ? seconds : 0)
                try configuration.checkFrameCount(durations.count, throwing: ImageDecoders.JXL.Error.self)
                total = try configuration.addingPixels(
                    width * height, to: total, throwing: ImageDecoders.JXL.Error.self)
                if header.is_last != JXL_FALSE {
                    return JXLHeaders(info: info, frameDurations: durations)
                }
            case JXL_DEC_SUCCESS:
                guard let info, !durations.isEmpty else { throw .invalidData(message: "the file has no image") }
                return JXLHeaders(info: info, frameDurations: durations)
            default:
                continue
            }
        }
    }
}
