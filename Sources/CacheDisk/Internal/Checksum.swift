internal import CXXHash

/// Fast non-cryptographic checksums (xxHash's XXH3) for detecting torn or corrupted bytes on disk.
///
/// File names use SHA-256 (``KeyDigest``); checksums only have to catch damage, and XXH3 does that at memory
/// speed, which keeps a verified hit read close to a raw file read.
enum Checksum {
    /// XXH3-128 of `bytes` as (low, high) halves.
    static func xxh3_128(_ bytes: UnsafeRawBufferPointer) -> (low: UInt64, high: UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var empty: UInt8 = 0
        withUnsafeMutablePointer(to: &empty) { emptyPointer in
            CXXHash_xxh3_128(bytes.baseAddress ?? UnsafeRawPointer(emptyPointer), bytes.count, &low, &high)
        }
        return (low, high)
    }

    /// XXH3-64 of `bytes`.
    static func xxh3_64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var empty: UInt8 = 0
        return withUnsafeMutablePointer(to: &empty) { emptyPointer in
            CXXHash_xxh3_64(bytes.baseAddress ?? UnsafeRawPointer(emptyPointer), bytes.count)
        }
    }
}
