import Foundation

/// gzip (RFC 1952) and zlib (RFC 1950) streams made of stored deflate blocks (RFC 1951 §3.2.4): valid input for
/// any decoder, produced without a compression library. The fixture server uses them for encoded bodies.
enum StoredDeflate {
    static func gzip(_ data: Data) -> Data {
        var output = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])
        output.append(storedBlocks(data))
        append(littleEndian: crc32(data), to: &output)
        append(littleEndian: UInt32(truncatingIfNeeded: data.count), to: &output)
        return output
    }

    static func zlib(_ data: Data) -> Data {
        var output = Data([0x78, 0x01])
        output.append(storedBlocks(data))
        let checksum = adler32(data)
        output.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: checksum >> $0) })
        return output
    }

    private static func storedBlocks(_ data: Data) -> Data {
        var output = Data()
        var start = data.startIndex
        repeat {
            let end = min(start + 65_535, data.endIndex)
            let length = UInt16(end - start)
            output.append(end == data.endIndex ? 0x01 : 0x00)  // BFINAL, BTYPE = 00 (stored)
            output.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
            output.append(contentsOf: [UInt8(~length & 0xFF), UInt8(~length >> 8)])
            output.append(data[start..<end])
            start = end
        } while start < data.endIndex
        return output
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    static func adler32(_ data: Data) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func append(littleEndian value: UInt32, to data: inout Data) {
        data.append(contentsOf: [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) })
    }
}
