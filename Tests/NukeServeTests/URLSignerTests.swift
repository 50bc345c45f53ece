import Foundation
import Testing

@testable import NukeServe

@Suite struct URLSignerTests {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

    /// Signatures made by Python's `hmac` and `base64` modules: an implementation independent of ours.
    static func pythonSignatures(_ paths: [String], key: String, salt: String, size: Int) throws -> [String] {
        let script = """
            import base64, hashlib, hmac, sys
            key, salt, size = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), int(sys.argv[3])
            for path in sys.stdin.read().split("\\n"):
                digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()[:size]
                print(base64.urlsafe_b64encode(digest).rstrip(b"=").decode())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, key, salt, String(size)]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(paths.joined(separator: "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static let paths = [
        "/rs:fit:300:300/plain/http://img.example.com/pretty/image.jpg",
        "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png",
        "/w:10/plain/https%3A%2F%2Fexample.com%2F%E2%9C%93.png@webp",
        "/",
    ]

    @Test(arguments: [32, 8, 1])
    func signaturesMatchAnIndependentImplementation(_ size: Int) throws {
        let signer = try URLSigner(pairs: [.init(hexKey: Self.key, hexSalt: Self.salt)], signatureSize: size)
        let expected = try Self.pythonSignatures(Self.paths, key: Self.key, salt: Self.salt, size: size)

        #expect(Self.paths.map(signer.signature(for:)) == expected)
        for (path, signature) in zip(Self.paths, expected) {
            #expect(signer.isValid(signature, for: path))
        }
    }

    @Test func tamperedPathsAndSignaturesAreRefused() throws {
        let signer = try URLSigner(pairs: [.init(hexKey: Self.key, hexSalt: Self.salt)])
        let path = Self.paths[0]
        let signature = signer.signature(for: path)
        var flipped = Array(signature)
        flipped[5] = flipped[5] == "A" ? "B" : "A"

        #expect(signer.isValid(signature, for: path))
        #expect(!signer.isValid(signature, for: path.replacingOccurrences(of: "300", with: "301")))
        #expect(!signer.isValid(String(flipped), for: path))
        #expect(!signer.isValid(String(signature.dropLast(2)), for: path))
        #expect(!signer.isValid("unsafe", for: path))
        #expect(!signer.isValid("", for: path))
    }

    @Test func anyConfiguredPairSigns() throws {
        let old = try URLSigner.KeyPair(hexKey: "0a0b", hexSalt: "0c0d")
        let new = try URLSigner.KeyPair(hexKey: Self.key, hexSalt: Self.salt)
        let both = try URLSigner(pairs: [new, old])
        let oldOnly = try URLSigner(pairs: [old])
        let path = Self.paths[2]

        #expect(both.isValid(oldOnly.signature(for: path), for: path))
        #expect(both.isValid(both.signature(for: path), for: path))
        #expect(!oldOnly.isValid(both.signature(for: path), for: path))
    }

    @Test func badConfigurationIsATypedError() {
        #expect(throws: ServeConfigurationError.self) { try URLSigner.KeyPair(hexKey: "xyz", hexSalt: "00") }
        #expect(throws: ServeConfigurationError.self) { try URLSigner.KeyPair(hexKey: "abc", hexSalt: "00") }
        #expect(throws: ServeConfigurationError.self) { try URLSigner.KeyPair(hexKey: "00", hexSalt: "") }
        #expect(throws: ServeConfigurationError.self) { try URLSigner(pairs: []) }
        #expect(throws: ServeConfigurationError.self) {
            try URLSigner(pairs: [.init(hexKey: "00", hexSalt: "00")], signatureSize: 33)
        }
    }

    @Test func hmacMatchesRFC4231() {
        // Test case 2 and test case 6 (a key longer than the block, hashed first).
        let code = HMACSHA256.authenticationCode(
            key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        let long = HMACSHA256.authenticationCode(
            key: [UInt8](repeating: 0xAA, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))

        #expect(Hex.encode(code) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Hex.encode(long) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}

extension Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
