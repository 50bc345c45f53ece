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
    /// bits 8 × (i % 8) of word i / 8. Eight digits at a time in a 64-bit word: a read parses one name per call.
    private static func parseHex(_ digits: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64, UInt64)? {
        guard digits.count == 64, let base = digits.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let (w0, valid0) = parseSixteenDigits(raw)
        let (w1, valid1) = parseSixteenDigits(raw + 16)
        let (w2, valid2) = parseSixteenDigits(raw + 32)
        let (w3, valid3) = parseSixteenDigits(raw + 48)
        guard valid0 && valid1 && valid2 && valid3 else { return nil }
        return (w0, w1, w2, w3)
    }

    /// The word of the 16 hexadecimal digits at `digits`, and whether they all are lowercase hexadecimal digits.
    private static func parseSixteenDigits(_ digits: UnsafeRawPointer) -> (UInt64, Bool) {
        let (low, isLowValid) = parseEightDigits(digits.loadUnaligned(as: UInt64.self))
        let (high, isHighValid) = parseEightDigits(digits.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return (low | high << 32, isLowValid && isHighValid)
    }

    /// The 4 bytes of 8 hexadecimal digits loaded as a word (the first digit in its lowest byte), first byte lowest,
    /// and whether all 8 are lowercase hexadecimal digits.
    private static func parseEightDigits(_ loaded: UInt64) -> (UInt64, Bool) {
        let x = UInt64(littleEndian: loaded)
        let high: UInt64 = 0x8080_8080_8080_8080
        // For ASCII bytes no sum below carries into the next byte: each high bit says whether a byte is at least
        // a bound. Digits are 0x30...0x39, letters 0x61...0x66.
        let isDigit = (x &+ 0x5050_5050_5050_5050) & ~(x &+ 0x4646_4646_4646_4646) & high
        let isLetter = (x &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(x &+ 0x1919_1919_1919_1919) & high
        let isValid = x & high == 0 && isDigit | isLetter == high
        // A digit's value is its low nibble; a letter's is its low nibble plus 9 (bit 6 tells letters apart).
        let values = (x & 0x0F0F_0F0F_0F0F_0F0F) &+ ((x >> 6) & 0x0101_0101_0101_0101) &* 9
        // Pairs of nibbles into bytes, then the four bytes together.
        var packed = (values & 0x00FF_00FF_00FF_00FF) << 4 | (values >> 8) & 0x00FF_00FF_00FF_00FF
        packed = (packed | packed >> 8) & 0x0000_FFFF_0000_FFFF
        packed = (packed | packed >> 16) & 0x0000_0000_FFFF_FFFF
        return (packed, isValid)
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
