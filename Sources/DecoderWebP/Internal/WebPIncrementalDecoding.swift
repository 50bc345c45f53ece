internal import CWebP
import Foundation
import NukeCore

/// The one owner of a `WebPIDecoder` and of the configuration it points into; `deinit` releases them with
/// `WebPIDelete` and `WebPFreeDecBuffer`.
///
/// Not thread-safe: ``IncrementalState`` serialises access.
final class WebPIncrementalDecoder {
    private let decoder: OpaquePointer
    /// libwebp keeps pointers to the options and the output buffer, so the configuration lives on the heap.
    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    let width: Int
    let height: Int

    init(width: Int, height: Int, features: WebPFeatures) throws(ImageDecoders.WebP.Error) {
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        guard WebPInitDecoderConfig(config) != 0 else {
            config.deallocate()
            throw .invalidData(message: "libwebp version mismatch")
        }
        if width != features.width || height != features.height {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(width)
            config.pointee.options.scaled_height = Int32(height)
        }
        config.pointee.output.colorspace = MODE_rgbA
        guard let decoder = WebPIDecode(nil, 0, config) else {
            config.deallocate()
            throw .outOfMemory
        }
        self.decoder = decoder
        self.config = config
        self.width = width
        self.height = height
    }

    deinit {
        WebPIDelete(decoder)
        WebPFreeDecBuffer(&config.pointee.output)
        config.deallocate()
    }

    /// Feeds more bytes; returns `true` while decoding can go on (the image is complete or needs more).
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        let status = WebPIAppend(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        return status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED
    }

    /// The number of rows decoded so far, and a copy of the image with the rest transparent.
    func snapshot(ifMoreThan rowCount: Int) -> (rows: Int, image: PlatformImage)? {
        var lastRow: Int32 = 0
        var outputWidth: Int32 = 0
        var outputHeight: Int32 = 0
        var stride: Int32 = 0
        guard let rgba = WebPIDecGetRGB(decoder, &lastRow, &outputWidth, &outputHeight, &stride),
            Int(outputWidth) == width, Int(outputHeight) == height, Int(lastRow) > rowCount,
            Int(lastRow) <= height, Int(stride) >= width * PlatformImage.bytesPerPixel
        else {
            return nil
        }
        let rows = Int(lastRow)
        let rowBytes = width * PlatformImage.bytesPerPixel
        let image = try? PlatformImage(width: width, height: height) { pixels in
            guard let destination = pixels.baseAddress else { return }
            for y in 0..<rows {
                (destination + y * rowBytes).copyMemory(from: rgba + y * Int(stride), byteCount: rowBytes)
            }
            (destination + rows * rowBytes).initializeMemory(
                as: UInt8.self, repeating: 0, count: (height - rows) * rowBytes)
        }
        return image.map { (rows, $0) }
    }
}

/// The incremental decoder of one image and how much of the data it has seen, behind a lock.
final class IncrementalState: Sendable {
    private struct State {
        var decoder: WebPIncrementalDecoder?
        var consumed = 0
        var rowCount = 0
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

    /// Feeds the bytes of `data` that are new since the last call and returns a preview if more rows are
    /// decoded. `makeDecoder` is called once the header has arrived; returning `nil` or throwing stops
    /// previews for this image.
    func preview(
        data: Data, makeDecoder: (WebPFeatures) throws -> WebPIncrementalDecoder?
    ) -> PlatformImage? {
        state.withLock { state in
            guard !state.isStopped, data.count > state.consumed else { return nil }
            return data.withUnsafeBytes { bytes -> PlatformImage? in
                if state.decoder == nil {
                    do {
                        let features = try WebPFeatures(bytes: bytes)
                        guard let created = try makeDecoder(features) else {
                            state.isStopped = true
                            return nil
                        }
                        state.decoder = created
                    } catch ImageDecoders.WebP.Error.truncatedData {
                        return nil  // The header hasn't fully arrived yet.
                    } catch {
                        state.isStopped = true
                        return nil
                    }
                }
                guard let decoder = state.decoder else { return nil }
                let new = UnsafeRawBufferPointer(rebasing: bytes[state.consumed...])
                state.consumed = bytes.count
                guard decoder.append(new) else {
                    state.isStopped = true
                    return nil
                }
                guard let snapshot = decoder.snapshot(ifMoreThan: state.rowCount) else { return nil }
                state.rowCount = snapshot.rows
                return snapshot.image
            }
        }
    }
}
