internal import CGIFShim
internal import CGIF
import NukeCore

/// The one owner of a `CGIFShim_Reader` (and through it giflib's `GifFileType`); `deinit` releases it with
/// `CGIFShim_ReaderDestroy`, which calls `DGifCloseFile`.
///
/// The bytes must stay valid for the reader's lifetime. Not thread-safe: one reader walks one file.
final class GIFReader {
    private let reader: OpaquePointer
    /// The logical screen (canvas) size.
    let screenWidth: Int
    let screenHeight: Int

    init(bytes: UnsafeRawBufferPointer) throws(ImageDecoders.GIF.Error) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .emptyData }
        var code: Int32 = 0
        guard let reader = CGIFShim_ReaderCreate(base.assumingMemoryBound(to: UInt8.self), bytes.count, &code) else {
            throw Self.error(code: code)
        }
        self.reader = reader
        screenWidth = Int(CGIFShim_ReaderScreenWidth(reader))
        screenHeight = Int(CGIFShim_ReaderScreenHeight(reader))
    }

    deinit {
        CGIFShim_ReaderDestroy(reader)
    }

    /// The NETSCAPE2.0 loop count read so far, or `nil` if the file had none (yet).
    var storedLoopCount: Int? {
        let count = CGIFShim_ReaderLoopCount(reader)
        return count < 0 ? nil : Int(count)
    }

    /// Reads up to the next frame and returns its descriptor, or `nil` at the trailer.
    func nextFrame() throws(ImageDecoders.GIF.Error) -> GIFFrame? {
        var frame = CGIFShim_Frame()
        switch CGIFShim_ReaderNextFrame(reader, &frame) {
        case CGIFShim_FRAME: return GIFFrame(frame)
        case CGIFShim_END: return nil
        default: throw lastError
        }
    }

    /// Skips the current frame's data without decoding it.
    func skipFrame() throws(ImageDecoders.GIF.Error) {
        guard CGIFShim_ReaderSkipFrame(reader) == 0 else { throw lastError }
    }

    /// Decodes the current frame onto `canvas` (screen-sized RGBA8), disposal of the previous frame applied.
    func draw(_ frame: GIFFrame, into canvas: UnsafeMutableRawPointer) throws(ImageDecoders.GIF.Error) {
        var descriptor = frame.descriptor
        guard CGIFShim_ReaderDrawFrame(reader, &descriptor, canvas.assumingMemoryBound(to: UInt8.self)) == 0 else {
            throw lastError
        }
    }

    private var lastError: ImageDecoders.GIF.Error { Self.error(code: CGIFShim_ReaderError(reader)) }

    /// The error for a giflib (or shim) error code, with giflib's message.
    static func error(code: Int32) -> ImageDecoders.GIF.Error {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON: return .truncatedData(message: message)
        case D_GIF_ERR_NOT_ENOUGH_MEM: return .outOfMemory
        default: return .invalidData(message: message)
        }
    }
}

/// One frame's image descriptor and graphic control extension.
struct GIFFrame {
    let descriptor: CGIFShim_Frame

    init(_ descriptor: CGIFShim_Frame) {
        self.descriptor = descriptor
    }

    var width: Int { Int(descriptor.width) }
    var height: Int { Int(descriptor.height) }
    /// The delay in hundredths of a second, as stored.
    var delay: Int { Int(descriptor.delay) }
    var hasTransparency: Bool { descriptor.transparentIndex >= 0 }

    /// Whether the frame covers the whole `width`×`height` screen.
    func covers(width screenWidth: Int, height screenHeight: Int) -> Bool {
        descriptor.left <= 0 && descriptor.top <= 0 && Int(descriptor.left) + width >= screenWidth
            && Int(descriptor.top) + height >= screenHeight
    }
}
