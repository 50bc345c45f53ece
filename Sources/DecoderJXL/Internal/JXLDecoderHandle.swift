internal import CJXL
import Foundation
import NukeCore

/// The one owner of a `JxlDecoder` reading bytes in memory; `deinit` releases it with `JxlDecoderDestroy`.
///
/// Single-threaded: no parallel runner is set, so libjxl decodes on the calling thread. The bytes must stay valid
/// for the handle's lifetime. Not thread-safe: one handle walks one file.
final class JXLDecoderHandle {
    let decoder: OpaquePointer
    /// Whether the bytes are a download in progress: ``next(reading:)`` returns `JXL_DEC_NEED_MORE_INPUT` rather
    /// than throwing ``ImageDecoders/JXL/Error/truncatedData``.
    let isPartial: Bool
    /// The statuses ``next(reading:)`` returns: the subscribed events, and the request for an output buffer when
    /// pixels are subscribed. Anything else stops the walk with an error, so that no loop waits on a status that
    /// can't change.
    private let expected: Set<UInt32>
    /// Whether libjxl has said `JXL_DEC_SUCCESS`: asking again would return it forever.
    private var isFinished = false

    /// Creates a decoder over `bytes` that reports `events` (`JXL_DEC_*` flags). `coalescing` composites layers and
    /// zero-duration frames into displayed frames (libjxl's default).
    ///
    /// The input is never closed (`JxlDecoderCloseInput`): libjxl 0.7 reports a file that ends early on closed
    /// input as a plain error, and on open input as a wait for more, which is how truncation is told apart. Every
    /// walk stops at the event it needs (the last frame's header, a frame's pixels), never waiting for the end.
    init(
        bytes: UnsafeRawBufferPointer, events: [JxlDecoderStatus], coalescing: Bool = true, isPartial: Bool = false
    ) throws(ImageDecoders.JXL.Error) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .emptyData }
        guard let decoder = JxlDecoderCreate(nil) else { throw .outOfMemory }
        self.decoder = decoder
        self.isPartial = isPartial
        var expected = Set(events.map(\.rawValue))
        if events.contains(JXL_DEC_FULL_IMAGE) { expected.insert(JXL_DEC_NEED_IMAGE_OUT_BUFFER.rawValue) }
        self.expected = expected
        // From here a throw releases the decoder through deinit.
        let mask = events.reduce(0) { $0 | Int32(bitPattern: $1.rawValue) }
        guard JxlDecoderSubscribeEvents(decoder, mask) == JXL_DEC_SUCCESS,
            JxlDecoderSetCoalescing(decoder, coalescing ? JXL_TRUE : JXL_FALSE) == JXL_DEC_SUCCESS,
            // The default, said outright: pixels come out in display orientation.
            JxlDecoderSetKeepOrientation(decoder, JXL_FALSE) == JXL_DEC_SUCCESS,
            JxlDecoderSetInput(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count) == JXL_DEC_SUCCESS
        else { throw .invalidData(message: "libjxl refused the decoder's settings") }
    }

    deinit {
        JxlDecoderDestroy(decoder)
    }

    /// Runs the decoder to its next event and returns it; `JXL_DEC_ERROR` and, unless the handle ``isPartial``,
    /// `JXL_DEC_NEED_MORE_INPUT` become errors (`step` names what was being read).
    func next(reading step: String) throws(ImageDecoders.JXL.Error) -> JxlDecoderStatus {
        guard !isFinished else { throw .invalidData(message: "the file ended before \(step)") }
        let status = JxlDecoderProcessInput(decoder)
        switch status {
        case JXL_DEC_ERROR: throw .invalidData(message: "libjxl rejected the data while reading \(step)")
        case JXL_DEC_NEED_MORE_INPUT: if isPartial { return status } else { throw .truncatedData }
        case JXL_DEC_SUCCESS: isFinished = true
        default:
            guard expected.contains(status.rawValue) else {
                throw .invalidData(message: "libjxl stopped with status \(status.rawValue) while reading \(step)")
            }
        }
        return status
    }

    /// The basic info (after `JXL_DEC_BASIC_INFO`): the size is the displayed size, orientation applied.
    func basicInfo() throws(ImageDecoders.JXL.Error) -> JxlBasicInfo {
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
            throw .invalidData(message: "libjxl has no basic info")
        }
        return info
    }

    /// The current frame's header (after `JXL_DEC_FRAME`).
    func frameHeader() throws(ImageDecoders.JXL.Error) -> JxlFrameHeader {
        var header = JxlFrameHeader()
        guard JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS else {
            throw .invalidData(message: "libjxl has no frame header")
        }
        return header
    }
}

/// The pixel format every decode asks for: 8-bit RGBA, native order, rows packed — the `PlatformImage` layout.
var rgba8PixelFormat: JxlPixelFormat {
    JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
}
