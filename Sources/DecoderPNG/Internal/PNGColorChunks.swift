internal import CPNG
import Foundation
import NukeCore

/// The colour chunks of a PNG file, which libpng's simplified API reads but doesn't hand over: `cICP`, `iCCP`
/// (inflated with zlib) and `sRGB`, and writing `iCCP`/`cICP` into an encoded file.
enum PNGColorChunks {
    /// The largest inflated profile accepted (ICC profiles are kilobytes; a LUT profile may reach a megabyte).
    static let maximumProfileSize = 16 << 20

    /// The colour profile the chunks before the image data describe, in the PNG specification's order of
    /// precedence: `cICP`, then `iCCP`, then `sRGB` (which means sRGB: `nil`). `nil` also when there is none or a
    /// chunk is damaged (its CRC is not checked here; libpng checks the file).
    static func profile(in bytes: UnsafeRawBufferPointer) -> ColorProfile? {
        var iccp: Range<Int>?
        var cicp: ColorProfile.CICP?
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard type != "IDAT", type != "IEND", length <= bytes.count - start else { break }
            switch type {
            case "iCCP" where iccp == nil: iccp = start..<(start + length)
            case "cICP" where length == 4:
                cicp = ColorProfile.CICP(
                    colorPrimaries: UInt16(bytes[start]), transferCharacteristics: UInt16(bytes[start + 1]),
                    matrixCoefficients: UInt16(bytes[start + 2]), isFullRange: bytes[start + 3] != 0)
            default: break
            }
            offset = start + length + 4
        }
        if let cicp { return .cicp(cicp) }
        guard let iccp else { return nil }
        return iccProfile(chunk: UnsafeRawBufferPointer(rebasing: bytes[iccp])).map { .icc($0) }
    }

    /// The inflated profile of an `iCCP` chunk's data: a name of 1-79 bytes, a NUL, compression method 0, then
    /// the zlib stream.
    private static func iccProfile(chunk: UnsafeRawBufferPointer) -> Data? {
        guard let nul = chunk.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 < chunk.count, chunk[nul + 1] == 0
        else { return nil }
        return inflate(UnsafeRawBufferPointer(rebasing: chunk[(nul + 2)...]))
    }

    /// `compressed` inflated with zlib's `uncompress`, into a buffer that grows until the data fits (up to
    /// ``maximumProfileSize``).
    static func inflate(_ compressed: UnsafeRawBufferPointer) -> Data? {
        guard let source = compressed.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return nil }
        var capacity = max(4096, compressed.count * 4)
        while capacity <= maximumProfileSize {
            var output = [UInt8](repeating: 0, count: capacity)
            var length = uLongf(capacity)
            let status = uncompress(&output, &length, source, uLong(compressed.count))
            if status == Z_OK { return Data(output.prefix(Int(length))) }
            guard status == Z_BUF_ERROR else { return nil }
            capacity *= 4
        }
        return nil
    }

    /// `png` with `profile` written after its `IHDR`: an `iCCP` chunk (named "ICC Profile", deflated) or a
    /// `cICP` chunk; `nil` when `png` doesn't start with a signature and `IHDR`, or zlib fails.
    static func embedding(_ profile: ColorProfile, in png: Data) -> Data? {
        let headerEnd = 8 + 8 + 13 + 4  // Signature, IHDR (length, type, 13 bytes, CRC).
        guard png.count > headerEnd, png.dropFirst(12).prefix(4).elementsEqual(Array("IHDR".utf8)) else {
            return nil
        }
        let chunk: Data
        switch profile {
        case let .cicp(value):
            guard value.colorPrimaries <= 255, value.transferCharacteristics <= 255, value.matrixCoefficients <= 255
            else { return nil }
            chunk = makeChunk(
                "cICP",
                Data([
                    UInt8(value.colorPrimaries), UInt8(value.transferCharacteristics),
                    UInt8(value.matrixCoefficients), value.isFullRange ? 1 : 0,
                ]))
        case let .icc(data):
            guard let deflated = deflate(data) else { return nil }
            chunk = makeChunk("iCCP", Data("ICC Profile".utf8) + Data([0, 0]) + deflated)
        }
        var result = Data(png.prefix(headerEnd))
        result.append(chunk)
        result.append(png.dropFirst(headerEnd))
        return result
    }

    private static func deflate(_ data: Data) -> Data? {
        var capacity = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = data.withUnsafeBytes { bytes -> Int32 in
            guard let source = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return Z_DATA_ERROR }
            return compress2(&output, &capacity, source, uLong(bytes.count), Z_BEST_COMPRESSION)
        }
        return status == Z_OK ? Data(output.prefix(Int(capacity))) : nil
    }

    /// A chunk: length, type, data and the CRC-32 of type and data.
    private static func makeChunk(_ type: String, _ data: Data) -> Data {
        let typeAndData = Data(type.utf8) + data
        let crc = typeAndData.withUnsafeBytes { bytes in
            crc32(0, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
        }
        var chunk = Data()
        chunk.append(contentsOf: withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init))
        chunk.append(typeAndData)
        chunk.append(contentsOf: withUnsafeBytes(of: UInt32(truncatingIfNeeded: crc).bigEndian, Array.init))
        return chunk
    }
}
