internal import CJXL
import Foundation
import NukeCore

/// Decodes the displayed frames of a JPEG XL file in order, composited (libjxl's coalescing), as 8-bit RGBA in
/// display orientation, asking libjxl for sRGB where it has the choice (see ``ImageDecoders/JXL``).
///
/// The bytes must stay valid for the decoder's lifetime, and the ``JXLHeaders`` must be those of the same bytes
/// (their limits checked). Not thread-safe: one decoder walks one file.
final class JXLFrameDecoder {
    private let handle: JXLDecoderHandle
    private let headers: JXLHeaders
    /// The colour space of the pixels libjxl writes, once it has read the colour encoding: `nil` for sRGB.
    private var colorProfile: ColorProfile?

    /// A decoder of `bytes`, a whole file.
    init(bytes: UnsafeRawBufferPointer, headers: JXLHeaders) throws(ImageDecoders.JXL.Error) {
        handle = try JXLDecoderHandle(
            bytes: bytes, events: [JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING, JXL_DEC_FULL_IMAGE])
        self.headers = headers
    }

    /// Decodes the next displayed frame, or returns `nil` after the last.
    func next() throws(ImageDecoders.JXL.Error) -> PlatformImage? {
        guard try advanceToPixels() else { return nil }
        return try makeImage { () throws(ImageDecoders.JXL.Error) in
            while try handle.next(reading: "the pixels") != JXL_DEC_FULL_IMAGE {}
        }
    }

    /// Runs the decoder to the point where it wants an output buffer for the next frame's pixels; `false` when the
    /// file has no more frames.
    private func advanceToPixels() throws(ImageDecoders.JXL.Error) -> Bool {
        while true {
            switch try handle.next(reading: "the header") {
            case JXL_DEC_BASIC_INFO:
                try Self.checkBasicInfo(of: handle, against: headers)
            case JXL_DEC_COLOR_ENCODING:
                colorProfile = Self.preferSRGB(for: handle, headers: headers)
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                return true
            case JXL_DEC_SUCCESS:
                return false
            default:
                continue
            }
        }
    }

    /// An image whose storage libjxl writes into; `finish` runs the decoder until the pixels are there.
    private func makeImage(
        finish: () throws(ImageDecoders.JXL.Error) -> Void
    ) throws(ImageDecoders.JXL.Error) -> PlatformImage {
        var format = rgba8PixelFormat
        var size = 0
        guard JxlDecoderImageOutBufferSize(handle.decoder, &format, &size) == JXL_DEC_SUCCESS,
            size == headers.width * headers.height * PlatformImage.bytesPerPixel
        else { throw .invalidData(message: "the frame's size differs from the image's") }
        do {
            var image = try PlatformImage(
                width: headers.width, height: headers.height, isPremultiplied: headers.isAlphaPremultiplied,
                isOpaque: !headers.hasAlpha
            ) { pixels in
                guard let base = pixels.baseAddress else { throw ImageDecoders.JXL.Error.outOfMemory }
                guard JxlDecoderSetImageOutBuffer(handle.decoder, &format, base, pixels.count) == JXL_DEC_SUCCESS
                else { throw ImageDecoders.JXL.Error.invalidData(message: "libjxl refused the output buffer") }
                try finish()
            }
            image.colorProfile = colorProfile
            return image
        } catch let error as ImageDecoders.JXL.Error {
            throw error
        } catch {
            throw .outOfMemory
        }
    }
}

extension JXLFrameDecoder {
    /// The `JXL_DEC_BASIC_INFO` event of a later pass over the file: the size must be the one the headers read.
    static func checkBasicInfo(
        of handle: JXLDecoderHandle, against headers: JXLHeaders
    ) throws(ImageDecoders.JXL.Error) {
        let info = try handle.basicInfo()
        guard Int(info.xsize) == headers.width, Int(info.ysize) == headers.height else {
            throw .invalidData(message: "the header changed between passes")
        }
    }

    /// The `JXL_DEC_COLOR_ENCODING` event: asks libjxl for sRGB and returns the profile of the pixels it will
    /// write. XYB-coded images (lossy) are converted to sRGB (grey images to sRGB's grey) by libjxl; images coded in
    /// their original colour space come as they are (libjxl ignores the preference for them).
    static func preferSRGB(for handle: JXLDecoderHandle, headers: JXLHeaders) -> ColorProfile? {
        var srgb = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&srgb, headers.isGray ? JXL_TRUE : JXL_FALSE)
        _ = JxlDecoderSetPreferredColorProfile(handle.decoder, &srgb)
        return headers.isGray ? nil : outputProfile(of: handle.decoder)
    }

    /// The colour space of the pixels `decoder` writes (libjxl's "data" target, after the sRGB preference): `nil`
    /// when it is sRGB — what libjxl converts lossy (XYB) images to — else the ICC profile libjxl gives for it, the
    /// file's own or one made from its structured colour encoding, for the pipeline's colour converter. `nil` as well
    /// when libjxl gives none.
    static func outputProfile(of decoder: OpaquePointer) -> ColorProfile? {
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding)
            == JXL_DEC_SUCCESS, encoding.color_space == JXL_COLOR_SPACE_RGB,
            encoding.white_point == JXL_WHITE_POINT_D65, encoding.primaries == JXL_PRIMARIES_SRGB,
            encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
        {
            return nil
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
            size > 0, size <= 4 << 20
        else { return nil }
        var profile = Data(count: size)
        let status = profile.withUnsafeMutableBytes { buffer in
            JxlDecoderGetColorAsICCProfile(
                decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                buffer.count)
        }
        return status == JXL_DEC_SUCCESS ? .icc(profile) : nil
    }
}

/// A decoder of an animation's frames with its own copy of the data (libjxl reads from it for the decoder's
/// lifetime). Not thread-safe: one pass on one thread.
final class JXLSequenceDecoder {
    private let bytes: UnsafeMutableRawBufferPointer
    /// Released before `bytes` in `deinit`: the decoder reads them until it is destroyed.
    private var decoder: JXLFrameDecoder?

    init(data: Data, configuration: ImageDecoders.JXL.Configuration) throws(ImageDecoders.JXL.Error) {
        guard !data.isEmpty else { throw .emptyData }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.copyBytes(to: bytes)
        do {
            let view = UnsafeRawBufferPointer(bytes)
            decoder = try JXLFrameDecoder(bytes: view, headers: JXLHeaders(bytes: view, configuration: configuration))
        } catch {
            bytes.deallocate()
            throw error
        }
        self.bytes = bytes
    }

    deinit {
        decoder = nil
        bytes.deallocate()
    }

    func next() throws(ImageDecoders.JXL.Error) -> PlatformImage? {
        guard let decoder else { throw .invalidData(message: "the decoder is closed") }  // Only in deinit.
        return try decoder.next()
    }
}

/// A pass over an animation's displayed frames.
struct JXLFrameIterator: ImageAnimationFrameIterator {
    let decoder: JXLSequenceDecoder
    let frameCount: Int
    var index = 0

    mutating func next() throws -> PlatformImage? {
        guard index < frameCount else { return nil }
        index += 1
        return try decoder.next()
    }
}
