internal import CWebP
import Foundation
import NukeCore

/// A WebP file's `ICCP` chunk: found by walking the RIFF container, and written through libwebpmux.
enum WebPColorProfile {
    /// The bytes of the `ICCP` chunk, or `nil` when the file has none or its RIFF structure is damaged.
    static func iccProfile(in bytes: UnsafeRawBufferPointer) -> Data? {
        guard bytes.count >= 12, bytes.prefix(4).elementsEqual("RIFF".utf8),
            bytes[8..<12].elementsEqual("WEBP".utf8)
        else { return nil }
        var offset = 12
        while offset + 8 <= bytes.count {
            let fourCC = bytes[offset..<(offset + 4)]
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            let start = offset + 8
            guard size <= bytes.count - start else { return nil }
            if fourCC.elementsEqual("ICCP".utf8) {
                return size > 0 ? Data(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + size)])) : nil
            }
            if fourCC.elementsEqual("VP8 ".utf8) || fourCC.elementsEqual("VP8L".utf8)
                || fourCC.elementsEqual("ANMF".utf8)
            {
                return nil  // ICCP comes before the image data.
            }
            offset = start + size + (size & 1)  // Chunks are padded to an even size.
        }
        return nil
    }

    /// `webp` with `profile` in an `ICCP` chunk (libwebpmux turns a simple file into the extended format);
    /// `nil` when libwebpmux rejects the file.
    static func embedding(_ profile: Data, in webp: Data) -> Data? {
        webp.withUnsafeBytes { file -> Data? in
            profile.withUnsafeBytes { icc -> Data? in
                guard let fileBase = file.baseAddress, let iccBase = icc.baseAddress else { return nil }
                var image = WebPData(bytes: fileBase.assumingMemoryBound(to: UInt8.self), size: file.count)
                var chunk = WebPData(bytes: iccBase.assumingMemoryBound(to: UInt8.self), size: icc.count)
                guard let mux = WebPMuxCreate(&image, 0) else { return nil }
                defer { WebPMuxDelete(mux) }
                guard WebPMuxSetChunk(mux, "ICCP", &chunk, 0) == WEBP_MUX_OK else { return nil }
                var output = WebPData()
                guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else {
                    WebPDataClear(&output)
                    return nil
                }
                defer { WebPDataClear(&output) }
                return Data(bytes: bytes, count: output.size)
            }
        }
    }
}
