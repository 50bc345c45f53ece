import Foundation
import NukeCore
import Testing

@testable import DecoderAVIF

/// The play count read from an AVIF sequence's edit list, on containers built box by box.
@Suite("AVIF edit list")
struct AVIFEditListTests {
    private static func be(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be(UInt64(8 + payload.count), size: 4) + Array(type.utf8) + payload
    }

    /// A track header of `version` with `duration` (the fields after it are left out: they aren't read).
    private static func trackHeader(version: UInt8, duration: UInt64) -> [UInt8] {
        let times = version == 1 ? [UInt8](repeating: 0, count: 16) : [UInt8](repeating: 0, count: 8)
        return box(
            "tkhd",
            [version, 0, 0, 3] + times + be(1, size: 4) + [0, 0, 0, 0]
                + be(duration, size: version == 1 ? 8 : 4))
    }

    private static func editList(
        version: UInt8 = 0, repeats: Bool, segment: UInt64, entries: UInt64 = 1
    )
        -> [UInt8]
    {
        box(
            "edts",
            box(
                "elst",
                [version, 0, 0, repeats ? 1 : 0] + be(entries, size: 4)
                    + be(segment, size: version == 1 ? 8 : 4) + [UInt8](repeating: 0, count: 8)))
    }

    private static func track(_ children: [UInt8], handler: String = "pict", alpha: Bool = false) -> [UInt8] {
        let hdlr = box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        let reference = alpha ? box("tref", box("auxl", be(1, size: 4))) : []
        return box("trak", children + reference + box("mdia", box("mdhd", [0, 0, 0, 0]) + hdlr))
    }

    private static func file(_ tracks: [UInt8]) -> [UInt8] {
        box("ftyp", Array("avis".utf8) + [0, 0, 0, 0]) + box("moov", box("mvhd", [0, 0, 0, 0]) + tracks)
    }

    private static func playCount(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { AVIFEditList.playCount(in: $0) }
    }

    @Test func theRepeatFlagAndTheDurationsGiveThePlayCount() {
        let header = Self.trackHeader(version: 0, duration: 300)
        #expect(Self.playCount(Self.file(Self.track(header))) == nil)  // No edit list: unknown.
        #expect(Self.playCount(Self.file(Self.track(header + Self.editList(repeats: false, segment: 100)))) == 1)
        #expect(Self.playCount(Self.file(Self.track(header + Self.editList(repeats: true, segment: 100)))) == 3)
        #expect(Self.playCount(Self.file(Self.track(header + Self.editList(repeats: true, segment: 99)))) == 4)
        let indefinite = Self.trackHeader(version: 0, duration: UInt64(UInt32.max))
        #expect(Self.playCount(Self.file(Self.track(indefinite + Self.editList(repeats: true, segment: 1)))) == 0)
        let long = Self.trackHeader(version: 1, duration: 1000)
        #expect(
            Self.playCount(Self.file(Self.track(long + Self.editList(version: 1, repeats: true, segment: 250)))) == 4)
        let huge = Self.trackHeader(version: 1, duration: UInt64(Int32.max) * 10)
        #expect(Self.playCount(Self.file(Self.track(huge + Self.editList(repeats: true, segment: 1)))) == 0)
    }

    @Test func malformedEditListsAreUnknown() {
        let header = Self.trackHeader(version: 0, duration: 300)
        #expect(Self.playCount(Self.file(Self.track(header + Self.editList(repeats: true, segment: 0)))) == nil)
        #expect(
            Self.playCount(Self.file(Self.track(header + Self.editList(repeats: true, segment: 100, entries: 2))))
                == nil)
        let zero = Self.trackHeader(version: 0, duration: 0)
        #expect(Self.playCount(Self.file(Self.track(zero + Self.editList(repeats: true, segment: 100)))) == nil)
        #expect(Self.playCount(Self.file(Self.track(Self.editList(repeats: true, segment: 100)))) == nil)  // No tkhd.
    }

    @Test func theColourTrackIsTheOneRead() {
        let alpha = Self.track(
            Self.trackHeader(version: 0, duration: 300) + Self.editList(repeats: false, segment: 300), alpha: true)
        let audio = Self.track(
            Self.trackHeader(version: 0, duration: 300) + Self.editList(repeats: false, segment: 300),
            handler: "soun")
        let colour = Self.track(
            Self.trackHeader(version: 0, duration: 500) + Self.editList(repeats: true, segment: 100))
        #expect(Self.playCount(Self.file(alpha + audio + colour)) == 5)
    }

    @Test func aSixtyFourBitBoxSizeIsRead() {
        let tracks = Self.track(
            Self.trackHeader(version: 0, duration: 200) + Self.editList(repeats: true, segment: 100))
        let movie = Self.be(1, size: 4) + Array("moov".utf8) + Self.be(UInt64(16 + tracks.count), size: 8) + tracks
        #expect(Self.playCount(movie) == 2)
    }

    @Test func everyTruncationAndAnyLengthIsSafe() {
        let file = Self.file(
            Self.track(Self.trackHeader(version: 1, duration: 900) + Self.editList(repeats: true, segment: 300)))
        #expect(Self.playCount(file) == 3)
        for length in 0..<file.count {
            _ = Self.playCount(Array(file.prefix(length)))
        }
        // Every byte set to each of three values that break lengths: the reader must stay within the bytes.
        for index in file.indices {
            for value: UInt8 in [0x00, 0x01, 0xFF] {
                var damaged = file
                damaged[index] = value
                _ = Self.playCount(damaged)
            }
        }
    }

    @Test func aRealSequenceWithoutAnEditListLoopsForever() throws {
        let animation = try ImageDecoders.AVIF.Animation(data: try pillow("star.avifs"))
        #expect(animation.loopCount == 0)
    }
}
