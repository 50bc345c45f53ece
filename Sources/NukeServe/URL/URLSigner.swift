import CCrypto
import Foundation

/// A mistake in the service's configuration (a key that isn't hex, a limit out of range), found at start-up.
public struct ServeConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the setting.
    public var message: String

    /// Makes an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Signs and checks request paths as imgproxy does: the signature is the URL-safe base64 (no padding) of the
/// HMAC-SHA256, keyed with `key`, of `salt` followed by the path after the signature (from its `/`), optionally
/// truncated to its first ``signatureSize`` bytes. Several key/salt pairs may be configured (to rotate keys): a
/// signature made with any of them is valid.
public struct URLSigner: Sendable {
    /// One key and its salt, as bytes.
    public struct KeyPair: Sendable, Hashable {
        public var key: [UInt8]
        public var salt: [UInt8]

        /// Makes a pair from hex-encoded key and salt, as imgproxy's `IMGPROXY_KEY`/`IMGPROXY_SALT` are written.
        ///
        /// - Throws: ``ServeConfigurationError`` if either is empty or not hex.
        public init(hexKey: String, hexSalt: String) throws(ServeConfigurationError) {
            guard let key = Hex.decode(hexKey), !key.isEmpty else {
                throw ServeConfigurationError("the key must be non-empty hex, got '\(hexKey.prefix(16))…'")
            }
            guard let salt = Hex.decode(hexSalt), !salt.isEmpty else {
                throw ServeConfigurationError("the salt must be non-empty hex, got '\(hexSalt.prefix(16))…'")
            }
            self.key = key
            self.salt = salt
        }
    }

    /// The configured pairs; the first signs.
    public let pairs: [KeyPair]
    /// How many bytes of the digest a signature carries, from 1 to 32 (imgproxy's `IMGPROXY_SIGNATURE_SIZE`).
    public let signatureSize: Int

    /// Makes a signer.
    ///
    /// - Throws: ``ServeConfigurationError`` without pairs, or with a size outside 1...32.
    public init(pairs: [KeyPair], signatureSize: Int = 32) throws(ServeConfigurationError) {
        guard !pairs.isEmpty else { throw ServeConfigurationError("signing needs at least one key and salt") }
        guard (1...32).contains(signatureSize) else {
            throw ServeConfigurationError("the signature size must be from 1 to 32 bytes, got \(signatureSize)")
        }
        self.pairs = pairs
        self.signatureSize = signatureSize
    }

    /// The signature of `signedPath` with the first pair.
    public func signature(for signedPath: String) -> String {
        Base64URL.encode(digest(pairs[0], signedPath).prefix(signatureSize))
    }

    /// Whether `signature` is valid for `signedPath` with any pair. Compares in time independent of where the bytes
    /// differ.
    public func isValid(_ signature: String, for signedPath: String) -> Bool {
        guard let given = Base64URL.decode(signature), given.count == signatureSize else { return false }
        var valid = false
        for pair in pairs {
            let expected = digest(pair, signedPath).prefix(signatureSize)
            var difference: UInt8 = 0
            for (a, b) in zip(given, expected) { difference |= a ^ b }
            valid = valid || difference == 0
        }
        return valid
    }

    private func digest(_ pair: KeyPair, _ signedPath: String) -> [UInt8] {
        HMACSHA256.authenticationCode(key: pair.key, message: pair.salt + Array(signedPath.utf8))
    }
}

/// HMAC (RFC 2104) with SHA-256 from libcrypto.
enum HMACSHA256 {
    static let blockSize = 64

    static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? sha256(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = sha256(block.map { $0 ^ 0x36 } + message)
        return sha256(block.map { $0 ^ 0x5c } + inner)
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when libcrypto cannot allocate its context.
        precondition(status == 1 && length == 32, "libcrypto's SHA-256 failed")
        return digest
    }
}

/// Hexadecimal text.
enum Hex {
    /// The bytes of `text` (two hex digits each, any case), or `nil` for an odd length or a non-hex character.
    static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
