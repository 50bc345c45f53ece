import DecoderJPEG
import Foundation
import NukeCore
import Testing

@Suite("JPEG colour profiles")
struct JPEGColorProfileTests {
    /// Bytes that stand for an ICC profile: the codec carries them without reading them.
    func profileBytes(count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })
    }

    func source() throws -> PlatformImage {
        var rgba: [UInt8] = []
        for index in 0..<(16 * 8) {
            rgba += [UInt8(index * 2), UInt8(255 - index), 90, 255]
        }
        var image = try PlatformImage(width: 16, height: 8, rgba: rgba)
        image.isOpaque = true
        return image
    }

    /// The ranges of the APP2 segments of `data`, in file order.
    func app2Segments(_ data: Data) -> [Range<Int>] {
        var segments: [Range<Int>] = []
        var offset = 2
        let bytes = [UInt8](data)
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] != 0xDA {
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if bytes[offset + 1] == 0xE2 { segments.append(offset..<(offset + 2 + length)) }
            offset += 2 + length
        }
        return segments
    }

    @Test("a profile larger than one segment survives encoding and decoding")
    func roundTrip() throws {
        // Given an image with a 150 KB profile (three APP2 segments)
        var image = try source()
        image.colorProfile = .icc(profileBytes(count: 150_000))

        // When it is encoded and decoded
        let data = try #require(ImageEncoders.JPEG(quality: 0.9).encode(image))
        let decoded = try ImageDecoders.JPEG().decode(data).image

        // Then the bytes are back
        #expect(app2Segments(data).count == 3)
        #expect(decoded.colorProfile == image.colorProfile)
    }

    @Test("segments out of file order are put back in sequence order")
    func sequenceOrder() throws {
        // Given a file whose three ICC segments are stored in the order 3, 1, 2
        var image = try source()
        image.colorProfile = .icc(profileBytes(count: 150_000))
        let data = try #require(ImageEncoders.JPEG(quality: 0.9).encode(image))
        let segments = app2Segments(data)
        try #require(segments.count == 3)
        var reordered = Data(data[..<segments[0].lowerBound])
        for index in [2, 0, 1] { reordered.append(data[segments[index]]) }
        reordered.append(data[segments[2].upperBound...])

        // When it is decoded
        let decoded = try ImageDecoders.JPEG().decode(reordered).image

        // Then the profile is whole
        #expect(decoded.colorProfile == image.colorProfile)
    }

    @Test("a missing segment leaves the image without a profile, decoded")
    func missingSegment() throws {
        var image = try source()
        image.colorProfile = .icc(profileBytes(count: 150_000))
        let data = try #require(ImageEncoders.JPEG(quality: 0.9).encode(image))
        let segments = app2Segments(data)
        try #require(segments.count == 3)
        var damaged = data
        damaged.removeSubrange(segments[1])

        let decoded = try ImageDecoders.JPEG().decode(damaged).image

        #expect(decoded.colorProfile == nil)
        #expect(decoded.width == 16)
    }

    @Test(
        "a segment whose count or sequence number is 0 leaves the image without a profile, decoded",
        arguments: [(sequence: UInt8(1), count: UInt8(0)), (sequence: 0, count: 1), (sequence: 2, count: 1)])
    func malformedSequence(sequence: UInt8, count: UInt8) throws {
        // Given a file with one ICC segment whose header says `sequence` of `count` (a fuzzer found count 0)
        var image = try source()
        image.colorProfile = .icc(profileBytes(count: 100))
        var data = try #require(ImageEncoders.JPEG(quality: 0.9).encode(image))
        let segment = try #require(app2Segments(data).first)
        let header = segment.lowerBound + 4 + "ICC_PROFILE\0".utf8.count
        data[header] = sequence
        data[header + 1] = count

        // When it is decoded
        let decoded = try ImageDecoders.JPEG().decode(data).image

        // Then the pixels are there and the profile is not
        #expect(decoded.colorProfile == nil)
        #expect(decoded.width == 16)
    }

    @Test("an image without a profile is written without APP2 segments")
    func noProfile() throws {
        let data = try #require(ImageEncoders.JPEG().encode(try source()))

        #expect(app2Segments(data).isEmpty)
        #expect(try ImageDecoders.JPEG().decode(data).image.colorProfile == nil)
    }
}
