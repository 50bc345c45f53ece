internal import CPNG
import NukeCore

/// The one owner of a libpng simplified-API read (`png_image`); `deinit` releases it with `png_image_free`.
///
/// The bytes must stay valid for the reader's lifetime. Not thread-safe: one reader decodes one image.
final class PNGReader {
    private let image: UnsafeMutablePointer<png_image>
    private let bytes: UnsafeRawBufferPointer

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        image = .allocate(capacity: 1)
        image.initialize(to: png_image())
        image.pointee.version = UInt32(PNG_IMAGE_VERSION)
    }

    deinit {
        png_image_free(image)  // A no-op when libpng already released its state.
        image.deallocate()
    }

    /// libpng's message after a failure.
    private var message: String {
        withUnsafeBytes(of: image.pointee.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The first chunk other than `IDAT` whose declared length runs past the end of `bytes`, if any.
    ///
    /// libpng allocates an ancillary chunk's whole declared length (up to 2³¹ − 1 bytes) before reading it, so a
    /// 44-byte file claiming a 1.3 GB `zTXt` made it allocate 1.3 GB; the data is all in memory here, so such a
    /// chunk can only be a lie (or a cut file) and is refused first. Image data (`IDAT`) is read as it streams,
    /// so a cut-off last `IDAT` still reaches libpng, which reports it.
    static func chunkPastTheEnd(_ bytes: UnsafeRawBufferPointer) -> (type: String, length: Int)? {
        var offset = 8  // The signature; libpng checks it.
        while offset + 8 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let remaining = bytes.count - offset - 8
            if type == "IEND" { return nil }
            if type != "IDAT", length > remaining { return (type, length) }
            // Data, then the 4-byte CRC; an overflowing length ends the walk at the end of the data.
            let (next, overflow) = (offset + 12).addingReportingOverflow(length)
            guard !overflow else { return nil }
            offset = next
        }
        return nil
    }

    /// `PNG_IMAGE_FAILED`: the two low bits of `warning_or_error` are above 1 after an error.
    private var failed: Bool { image.pointee.warning_or_error & 0x03 > 1 }

    func decode(configuration: ImageDecoders.PNG.Configuration) throws -> PlatformImage {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw ImageDecoders.PNG.Error.emptyData }
        if let chunk = Self.chunkPastTheEnd(bytes) {
            throw ImageDecoders.PNG.Error.invalidData(
                message: "the \(chunk.type) chunk claims \(chunk.length) bytes, more than the data has")
        }
        guard png_image_begin_read_from_memory(image, base, bytes.count) != 0, !failed else {
            throw ImageDecoders.PNG.Error.invalidData(message: message)
        }
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        try configuration.checkPixelCount(width: width, height: height, throwing: ImageDecoders.PNG.Error.self)
        // The format describes the file: the alpha flag is set for alpha channels and for tRNS.
        let isOpaque = image.pointee.format & UInt32(PNG_FORMAT_FLAG_ALPHA) == 0
        image.pointee.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
        // Without gAMA/sRGB chunks libpng takes 16-bit samples as linear; browsers take them as sRGB. The
        // flag is read by finish_read (begin_read clears it).
        image.pointee.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        let rowStride = Int32(clamping: width * PlatformImage.bytesPerPixel)
        do {
            return try PlatformImage(
                width: width, height: height, isPremultiplied: false, isOpaque: isOpaque
            ) { pixels in
                guard let buffer = pixels.baseAddress else { return }
                guard png_image_finish_read(image, nil, buffer, rowStride, nil) != 0, !failed else {
                    throw ImageDecoders.PNG.Error.invalidData(message: message)
                }
            }
        } catch is PlatformImage.Error {
            throw ImageDecoders.PNG.Error.imageTooLarge(
                width: width, height: height, maximumPixelCount: configuration.maximumPixelCount)
        }
    }
}
