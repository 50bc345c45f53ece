internal import CCrypto

/// The SHA-256 of a cache key: it names the key's file, so two keys never share an entry and no key can
/// name a path outside the cache directory.
struct KeyDigest: Hashable, Sendable {
    /// The 32 digest bytes as four words, first byte in the lowest bits of `w0`.
    let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    static let byteCount = 32

    /// All zero bits; stands in where a record names no entry.
    static let zero = KeyDigest(w0: 0, w1: 0, w2: 0, w3: 0)

    private init(w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64) {
        (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
    }

    /// The digest of `key`'s UTF-8 bytes (OpenSSL's EVP API), or `nil` if libcrypto fails.
    init?(key: String) {
        var key = key
        guard let digest = key.withUTF8({ KeyDigest.sha256(UnsafeRawBufferPointer($0)) }) else { return nil }
        (w0, w1, w2, w3) = digest
    }

    /// The digest stored at the start of `bytes` (at least ``byteCount`` of them).
    init(bytes: UnsafeRawBufferPointer) {
        w0 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        w1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        w2 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        w3 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Parses a file name made of 64 lowercase hexadecimal digits; `nil` for any other name.
    init?(fileName: String) {
        var words: [UInt64] = []
        words.reserveCapacity(4)
        var word: UInt64 = 0
        var count = 0
        for byte in fileName.utf8 {
            let nibble: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            // Byte i of the digest is hex digits 2i, 2i+1; it goes to bits 8*(i % 8) of word i / 8.
            let byteIndex = count / 2
            let shift = UInt64(8 * (byteIndex % 8) + (count % 2 == 0 ? 4 : 0))
            word |= nibble << shift
            count += 1
            if count % 16 == 0 {
                words.append(word)
                word = 0
            }
            if count > 64 { return nil }
        }
        guard count == 64 else { return nil }
        (w0, w1, w2, w3) = (words[0], words[1], words[2], words[3])
    }

    /// 64 lowercase hexadecimal digits, the digest bytes in order.
    var fileName: String {
        String(unsafeUninitializedCapacity: 64) { buffer in
            KeyDigest.writeHex(w0, to: buffer, at: 0)
            KeyDigest.writeHex(w1, to: buffer, at: 16)
            KeyDigest.writeHex(w2, to: buffer, at: 32)
            KeyDigest.writeHex(w3, to: buffer, at: 48)
            return 64
        }
    }

    /// Writes the 8 bytes of `word`, lowest first, as 16 lowercase hexadecimal digits at `index`.
    private static func writeHex(_ word: UInt64, to buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        for byte in 0..<8 {
            let value = UInt8(truncatingIfNeeded: word >> UInt64(8 * byte))
            buffer[index + 2 * byte] = hexDigit(value >> 4)
            buffer[index + 2 * byte + 1] = hexDigit(value & 0xf)
        }
    }

    /// The lowercase ASCII hexadecimal digit of `nibble` (0...15).
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Writes the 32 digest bytes at the start of `buffer`.
    func write(to buffer: UnsafeMutableRawBufferPointer) {
        buffer.storeBytes(of: w0.littleEndian, toByteOffset: 0, as: UInt64.self)
        buffer.storeBytes(of: w1.littleEndian, toByteOffset: 8, as: UInt64.self)
        buffer.storeBytes(of: w2.littleEndian, toByteOffset: 16, as: UInt64.self)
        buffer.storeBytes(of: w3.littleEndian, toByteOffset: 24, as: UInt64.self)
    }

    private static func sha256(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64, UInt64)? {
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var length: UInt32 = 0
        // `EVP_Digest` accepts a null pointer only with a zero length; an empty key hashes one dummy byte's
        // address with a length of zero.
        var empty: UInt8 = 0
        let status = withUnsafeMutableBytes(of: &digest) { output in
            withUnsafeMutablePointer(to: &empty) { emptyPointer in
                EVP_Digest(
                    bytes.baseAddress ?? UnsafeRawPointer(emptyPointer), bytes.count,
                    output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length,
                    SHA256Algorithm.shared.algorithm, nil)
            }
        }
        guard status == 1, length == 32 else { return nil }
        return (
            UInt64(littleEndian: digest.0), UInt64(littleEndian: digest.1),
            UInt64(littleEndian: digest.2), UInt64(littleEndian: digest.3)
        )
    }

    /// The digest bytes are uniformly distributed already: the first word is a good enough hash.
    func hash(into hasher: inout Hasher) {
        hasher.combine(w0)
    }
}

/// OpenSSL's SHA-256 implementation, fetched once: with OpenSSL 3, passing the legacy `EVP_sha256()` makes every
/// digest look the implementation up again, which costs more than hashing a URL.
private final class SHA256Algorithm: @unchecked Sendable {
    // @unchecked: a fetched `EVP_MD` is immutable and reference-counted by OpenSSL, safe to use from any thread.
    static let shared = SHA256Algorithm()

    private let fetched: OpaquePointer?

    /// The fetched implementation, or the legacy one if fetching failed.
    var algorithm: OpaquePointer? { fetched ?? EVP_sha256() }

    private init() {
        fetched = EVP_MD_fetch(nil, "SHA256", nil)
    }

    deinit {
        EVP_MD_free(fetched)
    }
}
