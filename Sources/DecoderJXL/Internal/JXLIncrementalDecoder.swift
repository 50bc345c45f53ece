internal import CJXL
import Foundation
import NukeCore

/// One `JxlDecoder` kept across the previews of one download, fed only the bytes that arrived since the previous
/// call, so that a download decodes once in all rather than once per preview. It owns the input it hands libjxl
/// (the bytes libjxl hasn't consumed yet plus the new ones; libjxl reads them until the next call) and the output
/// buffer libjxl renders into; `deinit` frees both after the decoder.
///
/// Not thread-safe: ``JXLIncrementalState`` serialises access.
final class JXLIncrementalDecoder {
    private let handle: JXLDecoderHandle
    private let headers: JXLHeaders
    /// The bytes libjxl is reading, and where they start in the download.
    private var input: UnsafeMutableRawBufferPointer
    private var inputStart: Int
    private var output: UnsafeMutableRawBufferPointer?
    /// The colour space of the pixels libjxl writes, once it has read the colour encoding: `nil` for sRGB.
    private var colorProfile: ColorProfile?

    /// A decoder of the first frame of a still image whose `headers`, read from `bytes` (the download so far),
    /// passed the limits; `nil` for an animation, which has no previews.
    init?(headers: JXLHeaders, bytes: UnsafeRawBufferPointer) throws(ImageDecoders.JXL.Error) {
        guard !headers.isAnimated, !bytes.isEmpty else { return nil }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        input.copyMemory(from: bytes)
        do {
            handle = try JXLDecoderHandle(
                bytes: UnsafeRawBufferPointer(input),
                events: [JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING, JXL_DEC_FULL_IMAGE], isPartial: true)
        } catch {
            input.deallocate()
            throw error
        }
        self.input = input
        self.inputStart = 0
        self.headers = headers
    }

    deinit {
        _ = JxlDecoderReleaseInput(handle.decoder)
        input.deallocate()
        output?.deallocate()
    }

    /// Gives libjxl the bytes of `bytes` (the download so far) it hasn't seen; `false` when there are none.
    func append(_ bytes: UnsafeRawBufferPointer) throws(ImageDecoders.JXL.Error) -> Bool {
        let seen = inputStart + input.count
        guard bytes.count > seen else { return false }
        // libjxl hands back the bytes it hasn't consumed; they go again at the start of the new input.
        let start = seen - JxlDecoderReleaseInput(handle.decoder)
        let next = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count - start, alignment: 16)
        next.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        input.deallocate()
        (input, inputStart) = (next, start)
        guard let base = input.baseAddress,
            JxlDecoderSetInput(handle.decoder, base.assumingMemoryBound(to: UInt8.self), input.count)
                == JXL_DEC_SUCCESS
        else { throw .invalidData(message: "libjxl refused the input") }
        return true
    }

    /// Runs libjxl as far as its input goes and returns what it can render of the frame: the whole frame once it
    /// has arrived (`isFinal`), else a partial rendering (`JxlDecoderFlushImage`). `nil` when there is nothing to
    /// show yet; throws when the data is bad.
    func render() throws(ImageDecoders.JXL.Error) -> (image: PlatformImage, isFinal: Bool)? {
        while true {
            switch try handle.next(reading: "the first frame") {
            case JXL_DEC_BASIC_INFO:
                try JXLFrameDecoder.checkBasicInfo(of: handle, against: headers)
            case JXL_DEC_COLOR_ENCODING:
                colorProfile = JXLFrameDecoder.preferSRGB(for: handle, headers: headers)
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                try setOutputBuffer()
            case JXL_DEC_FULL_IMAGE:
                return snapshot().map { ($0, true) }
            case JXL_DEC_NEED_MORE_INPUT:
                guard output != nil, JxlDecoderFlushImage(handle.decoder) == JXL_DEC_SUCCESS else { return nil }
                return snapshot().map { ($0, false) }
            default:
                throw .invalidData(message: "the file ended before its first frame")
            }
        }
    }

    private func setOutputBuffer() throws(ImageDecoders.JXL.Error) {
        var format = rgba8PixelFormat
        var size = 0
        let count = headers.width * headers.height * PlatformImage.bytesPerPixel
        guard JxlDecoderImageOutBufferSize(handle.decoder, &format, &size) == JXL_DEC_SUCCESS, size == count else {
            throw .invalidData(message: "the frame's size differs from the image's")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)  // Areas with no data yet stay transparent.
        output = buffer
        guard let base = buffer.baseAddress,
            JxlDecoderSetImageOutBuffer(handle.decoder, &format, base, count) == JXL_DEC_SUCCESS
        else { throw .invalidData(message: "libjxl refused the output buffer") }
    }

    /// A copy of the output buffer as an image, in the colour space libjxl writes.
    private func snapshot() -> PlatformImage? {
        guard let output else { return nil }
        var image = try? PlatformImage(
            width: headers.width, height: headers.height, isPremultiplied: headers.isAlphaPremultiplied,
            isOpaque: !headers.hasAlpha
        ) { pixels in
            pixels.copyMemory(from: UnsafeRawBufferPointer(output))
        }
        image?.colorProfile = colorProfile
        return image
    }
}

/// The incremental decoder of one download and whether previews go on, behind a lock.
final class JXLIncrementalState: Sendable {
    private struct State {
        var decoder: JXLIncrementalDecoder?
        var isStopped = false
    }

    private let state = LockedValueBox(State())

    /// Releases the incremental decoder and ends previews for this image.
    func stop() {
        let released = state.withLock { state in
            defer {
                state.decoder = nil
                state.isStopped = true
            }
            return state.decoder
        }
        _ = released  // Released here, outside the lock.
    }

    /// Checks the headers of `data` (the download so far) against `configuration`, feeds the new bytes and returns a
    /// preview, or `nil`. Bad data, a file over the limits, an animation and a complete first frame end previews.
    func preview(data: Data, configuration: ImageDecoders.JXL.Configuration) -> PlatformImage? {
        state.withLock { state in
            guard !state.isStopped, !data.isEmpty else { return nil }
            return data.withUnsafeBytes { bytes -> PlatformImage? in
                do {
                    // Every frame header that has arrived is checked before libjxl decodes any of its pixels.
                    let headers = try JXLHeaders(bytes: bytes, configuration: configuration, isPartial: true)
                    if let decoder = state.decoder {
                        guard try decoder.append(bytes) else { return nil }
                    } else {
                        guard let decoder = try JXLIncrementalDecoder(headers: headers, bytes: bytes) else {
                            state.isStopped = true
                            return nil
                        }
                        state.decoder = decoder
                    }
                    guard let result = try state.decoder?.render() else { return nil }
                    if result.isFinal { state.isStopped = true }
                    return result.image
                } catch ImageDecoders.JXL.Error.truncatedData {
                    return nil  // The headers haven't all arrived yet.
                } catch {
                    state.isStopped = true
                    return nil
                }
            }
        }
    }
}
