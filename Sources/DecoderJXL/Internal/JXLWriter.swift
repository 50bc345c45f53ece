internal import CJXL
import Foundation
import NukeCore

/// The one owner of a `JxlEncoder` writing one file; `deinit` releases it with `JxlEncoderDestroy` (which also
/// frees the frame settings). Single-threaded (no parallel runner). Not thread-safe: one writer, one thread.
final class JXLWriter {
    private let encoder: OpaquePointer
    private let settings: OpaquePointer
    private let width: Int
    private let height: Int
    private let hasAlpha: Bool
    private let isAnimated: Bool

    /// Starts a `width × height` file, 8 bits per sample, whose samples are in `colorProfile` (an ICC profile is
    /// embedded, a CICP description JPEG XL can state is written as its colour encoding) or sRGB (`nil`, or a
    /// profile libjxl refuses or can't state: left out, as other encoders leave out what their format can't hold);
    /// `hasAlpha` adds a straight alpha channel (the images' colours are un-premultiplied for it); `loopCount`
    /// (0: forever) makes it an animation with millisecond ticks. `distance` is libjxl's butteraugli distance,
    /// `nil` for lossless. `nil` if libjxl refuses a setting.
    init?(
        width: Int, height: Int, hasAlpha: Bool, loopCount: Int?, distance: Float?, effort: Int,
        colorProfile: ColorProfile? = nil
    ) {
        guard width > 0, height > 0, let xsize = UInt32(exactly: width), let ysize = UInt32(exactly: height),
            let encoder = JxlEncoderCreate(nil)
        else { return nil }
        guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
            JxlEncoderDestroy(encoder)
            return nil
        }
        self.encoder = encoder
        self.settings = settings
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.isAnimated = loopCount != nil
        // From here a failure releases the encoder through deinit.
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = xsize
        info.ysize = ysize
        info.bits_per_sample = 8
        info.exponent_bits_per_sample = 0
        info.num_color_channels = 3
        info.alpha_bits = hasAlpha ? 8 : 0
        info.num_extra_channels = hasAlpha ? 1 : 0
        // Straight alpha: libjxl 0.7 writes no "premultiplied" flag from the basic info (and aborts on one set in the
        // extra channel info), and every decoder expects straight alpha anyway.
        info.alpha_premultiplied = JXL_FALSE
        // Lossless keeps the samples in their own (sRGB) space; lossy codes XYB.
        info.uses_original_profile = distance == nil ? JXL_TRUE : JXL_FALSE
        if let loopCount {
            info.have_animation = JXL_TRUE
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: max(loopCount, 0))
        }
        let effortOption = Int64(min(max(effort, 1), 9))
        guard JxlEncoderSetBasicInfo(encoder, &info) == JXL_ENC_SUCCESS,
            Self.setColor(of: encoder, to: colorProfile),
            JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effortOption) == JXL_ENC_SUCCESS,
            distance.map({ JxlEncoderSetFrameDistance(settings, $0) })
                ?? JxlEncoderSetFrameLossless(settings, JXL_TRUE) == JXL_ENC_SUCCESS
        else { return nil }
    }

    deinit {
        JxlEncoderDestroy(encoder)
    }

    /// Says what colour space the samples are in: `profile`'s ICC bytes, its CICP values as a JPEG XL colour
    /// encoding, else sRGB. `false` only if libjxl refuses sRGB too.
    private static func setColor(of encoder: OpaquePointer, to profile: ColorProfile?) -> Bool {
        switch profile {
        case let .icc(data):
            let accepted = data.withUnsafeBytes { bytes -> Bool in
                guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
                return JxlEncoderSetICCProfile(encoder, base, bytes.count) == JXL_ENC_SUCCESS
            }
            if accepted { return true }
        case let .cicp(value):
            if var encoding = colorEncoding(for: value),
                JxlEncoderSetColorEncoding(encoder, &encoding) == JXL_ENC_SUCCESS
            {
                return true
            }
        case nil:
            break
        }
        var srgb = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&srgb, JXL_FALSE)
        return JxlEncoderSetColorEncoding(encoder, &srgb) == JXL_ENC_SUCCESS
    }

    /// The JPEG XL colour encoding of a CICP description of RGB samples: BT.709/sRGB, Display P3 or BT.2020
    /// primaries (D65) with the sRGB, BT.709, linear, PQ or HLG transfer; `nil` for anything else.
    static func colorEncoding(for cicp: ColorProfile.CICP) -> JxlColorEncoding? {
        let primaries: JxlPrimaries
        switch cicp.colorPrimaries {
        case 1: primaries = JXL_PRIMARIES_SRGB
        case 9: primaries = JXL_PRIMARIES_2100
        case 12: primaries = JXL_PRIMARIES_P3
        default: return nil
        }
        let transfer: JxlTransferFunction
        switch cicp.transferCharacteristics {
        case 13: transfer = JXL_TRANSFER_FUNCTION_SRGB
        case 1, 6, 14, 15: transfer = JXL_TRANSFER_FUNCTION_709
        case 8: transfer = JXL_TRANSFER_FUNCTION_LINEAR
        case 16: transfer = JXL_TRANSFER_FUNCTION_PQ
        case 18: transfer = JXL_TRANSFER_FUNCTION_HLG
        default: return nil
        }
        var encoding = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&encoding, JXL_FALSE)
        encoding.primaries = primaries
        encoding.white_point = JXL_WHITE_POINT_D65
        encoding.transfer_function = transfer
        encoding.rendering_intent = JXL_RENDERING_INTENT_RELATIVE
        return encoding
    }

    /// Adds `image` (this writer's size) as the next frame, shown for `milliseconds` in an animation; `false` if
    /// libjxl refuses it.
    func add(_ image: PlatformImage, milliseconds: UInt32 = 0) -> Bool {
        guard image.width == width, image.height == height else { return false }
        if isAnimated {
            var header = JxlFrameHeader()
            JxlEncoderInitFrameHeader(&header)
            header.duration = milliseconds
            guard JxlEncoderSetFrameHeader(settings, &header) == JXL_ENC_SUCCESS else { return false }
        }
        let channels = hasAlpha ? 4 : 3
        var format = JxlPixelFormat(
            num_channels: UInt32(channels), data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        if hasAlpha {
            let straight = image.unpremultipliedRGBA()
            return JxlEncoderAddImageFrame(settings, &format, straight, straight.count) == JXL_ENC_SUCCESS
        }
        return image.withUnsafeBytes { pixels -> Bool in
            guard let base = pixels.baseAddress else { return false }
            // Rows packed, without the alpha byte.
            var packed = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                let row = base + y * image.bytesPerRow
                for x in 0..<width {
                    for channel in 0..<3 {
                        packed[(y * width + x) * 3 + channel] = row.load(
                            fromByteOffset: x * 4 + channel, as: UInt8.self)
                    }
                }
            }
            return JxlEncoderAddImageFrame(settings, &format, packed, packed.count) == JXL_ENC_SUCCESS
        }
    }

    /// Closes the input and returns the encoded file, or `nil` if libjxl fails.
    func finish() -> Data? {
        JxlEncoderCloseInput(encoder)
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            let status = output.withUnsafeMutableBufferPointer { buffer -> JxlEncoderStatus in
                guard let base = buffer.baseAddress else { return JXL_ENC_ERROR }
                var next: UnsafeMutablePointer<UInt8>? = base + written
                var available = buffer.count - written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                written = buffer.count - available
                return status
            }
            switch status {
            case JXL_ENC_SUCCESS: return Data(output[0..<written])
            case JXL_ENC_NEED_MORE_OUTPUT: output.append(contentsOf: repeatElement(0, count: output.count))
            default: return nil
            }
        }
    }
}
