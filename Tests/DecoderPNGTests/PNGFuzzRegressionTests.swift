import DecoderPNG
import Foundation
import NukeCore
import Testing

/// Inputs the `png` fuzz target (Fuzz/) found.
@Suite struct PNGFuzzRegressionTests {
    /// The fuzz input `Tests/Fixtures/fuzz/<name>`.
    static func fixture(_ name: String) throws -> Data {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: tests.appendingPathComponent("Fixtures/fuzz/\(name)"))
    }

    @Test func aChunkClaimingMoreBytesThanTheFileHasIsRefusedBeforeLibpngAllocatesIt() throws {
        // A 44-byte PNG whose zTXt chunk claims 1.3 GB: libpng allocated the whole claim before reading it
        // (an out-of-memory stop after 595 k fuzz executions, and the cause of an earlier 2 GB RSS finding).
        let data = try Self.fixture("png-huge-ztxt")
        #expect(data.count == 44)

        #expect {
            try ImageDecoders.PNG().decode(data)
        } throws: { error in
            guard case let ImageDecoders.PNG.Error.invalidData(message) = error else { return false }
            return message == "the zTXt chunk claims 1308622848 bytes, more than the data has"
        }
    }

    @Test func aFileCutInsideItsImageDataStillReachesLibpng() throws {
        // A valid PNG cut in the middle of its IDAT: libpng's own error, not the chunk check's
        let whole = try #require(ImageEncoders.PNG().encode(Self.noise(width: 64, height: 64)))
        let cut = whole.prefix(whole.count / 2)

        #expect {
            try ImageDecoders.PNG().decode(Data(cut))
        } throws: { error in
            guard case let ImageDecoders.PNG.Error.invalidData(message) = error else { return false }
            return !message.contains("claims")
        }
    }

    /// An image whose pixels don't compress away, so its IDAT is most of the file.
    static func noise(width: Int, height: Int) -> PlatformImage {
        var state: UInt32 = 12_345
        let bytes = (0..<(width * height * 4)).map { index -> UInt8 in
            state = state &* 1_103_515_245 &+ 12_345
            return index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 16)
        }
        // The size matches the bytes, so the initializer can't fail.
        guard var image = try? PlatformImage(width: width, height: height, rgba: bytes) else { return PlatformImage() }
        image.isOpaque = true
        return image
    }
}
