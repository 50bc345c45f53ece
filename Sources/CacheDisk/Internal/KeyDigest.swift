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

    /// The digest of `key`'s UTF-8 bytes (OpenSSL's SHA-256), or `nil` if libcrypto fails.
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

    /// Parses a file name made of 64 lowercase hexadecimal digits; `nil` for any other name. Allocates nothing.
    init?(fileName: String) {
        var fileName = fileName
        guard let words = fileName.withUTF8(KeyDigest.parseHex) else { return nil }
        (w0, w1, w2, w3) = words
    }

    /// The four words of 64 lowercase hexadecimal digits; byte i of the digest is digits 2i and 2i+1, and goes to
    /// bits 8 × (i % 8) of word i / 8.
    private static func parseHex(_ digits: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64, UInt64)? {
        guard digits.count == 64, let base = digits.baseAddress else { return nil }
        let (w0, valid0) = parseWord(base)
        let (w1, valid1) = parseWord(base + 16)
        let (w2, valid2) = parseWord(base + 32)
        let (w3, valid3) = parseWord(base + 48)
        guard valid0 && valid1 && valid2 && valid3 else { return nil }
        return (w0, w1, w2, w3)
    }

    /// The word of the 16 digits at `digits`, and whether they all are lowercase hexadecimal digits. Branch-free:
    /// a read parses one name per call.
    private static func parseWord(_ digits: UnsafePointer<UInt8>) -> (UInt64, Bool) {
        var word: UInt64 = 0
        var isValid = true
        for index in 0..<16 {
            let byte = digits[index]
            let digit = byte &- UInt8(ascii: "0")
            let letter = byte &- UInt8(ascii: "a")
            let isDigit = digit < 10
            isValid = isValid && (isDigit || letter < 6)
            let nibble = UInt64(isDigit ? digit : letter &+ 10)
            // Digit 2i is the high nibble of byte i.
            word |= nibble << UInt64(8 * (index >> 1) + (index & 1 == 0 ? 4 : 0))
        }
        return (word, isValid)
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
        let status = withUnsafeMutableBytes(of: &digest) { output in
            CCrypto_sha256(bytes.baseAddress, bytes.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        guard status == 1 else { return nil }
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
