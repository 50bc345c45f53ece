import DecoderGIF
import Foundation
import NukeCore
import Testing

/// The decoder's own LZW stage, on streams made here by an encoder independent of giflib's: a table that fills
/// and stays full (no clear code, as some encoders write), clear codes, strings of every length up to the
/// 4,096-byte maximum across rows of one pixel, interlacing, and the three ways a stream can be broken.
@Suite("GIF LZW decoding")
struct GIFLZWTests {
    @Test("a table that fills and is kept without a clear code decodes every pixel")
    func fullTableWithoutClear() throws {
        let indices = Self.noise(count: 300 * 200, seed: 1)
        let data = LZWStream.gif(width: 300, height: 200, indices: indices, clearWhenFull: false)
        try expectDecodes(data, width: 300, height: 200, indices: indices)
    }

    @Test("clear codes whenever the table fills reset it")
    func clearWhenFull() throws {
        let indices = Self.noise(count: 257 * 190, seed: 2)
        let data = LZWStream.gif(width: 257, height: 190, indices: indices, clearWhenFull: true)
        try expectDecodes(data, width: 257, height: 190, indices: indices)
    }

    @Test(
        "long strings (a constant run builds strings up to 4,096 bytes) span many rows, also one pixel wide",
        arguments: [(1, 40_000), (3, 20_000), (4_500, 9)])
    func longStrings(width: Int, height: Int) throws {
        let indices =
            [UInt8](repeating: 7, count: width * height / 2) + Self.noise(count: width * height / 2, seed: 3)
            + [UInt8](repeating: 9, count: width * height - (width * height / 2) * 2)
        let data = LZWStream.gif(width: width, height: height, indices: indices, clearWhenFull: false)
        try expectDecodes(data, width: width, height: height, indices: indices)
    }

    @Test(
        "an interlaced frame's rows, stored pass by pass, land on their own lines", arguments: [1, 2, 3, 5, 8, 9, 37])
    func interlaced(height: Int) throws {
        let indices = Self.noise(count: 13 * height, seed: UInt64(height))
        let data = LZWStream.gif(width: 13, height: height, indices: indices, clearWhenFull: true, interlaced: true)
        try expectDecodes(data, width: 13, height: height, indices: indices)
    }

    @Test(
        "minimum code sizes below 8 decode too; 1, which the format doesn't allow, with the widths giflib reads",
        arguments: [1, 2, 5])
    func smallCodeSize(minimumCodeSize: Int) throws {
        let mask = UInt8((1 << max(minimumCodeSize, 1)) - 1)
        let indices = Self.noise(count: 64 * 64, seed: 4).map { $0 & mask }
        let data = LZWStream.gif(
            width: 64, height: 64, indices: indices, clearWhenFull: false, minimumCodeSize: minimumCodeSize)
        try expectDecodes(data, width: 64, height: 64, indices: indices)
    }

    @Test("data past the last pixel is skipped, and the next frame decodes")
    func trailingData() throws {
        let first = Self.noise(count: 40 * 30, seed: 5)
        var stream = LZWStream.codes(for: first, minimumCodeSize: 8, clearWhenFull: false)
        stream.write(Array(repeating: 65, count: 200), extraBytes: 600)  // after the end code: junk
        let second = [UInt8](repeating: 200, count: 40 * 30)
        let data = LZWStream.file(
            width: 40, height: 30,
            frames: [
                LZWStream.frame(width: 40, height: 30, stream: stream.bytes),
                LZWStream.frame(
                    width: 40, height: 30,
                    stream: LZWStream.codes(for: second, minimumCodeSize: 8, clearWhenFull: false).bytes),
            ])
        let animation = try ImageDecoders.GIF.Animation(data: data)
        let frames = try (0..<2).map { try animation.frame(at: $0) }
        #expect(frames[0].bytes == LZWStream.gray(first))
        #expect(frames[1].bytes == LZWStream.gray(second))
    }

    @Test("a code past the table's next entry is an image defect (invalidData with giflib's message)")
    func codePastTheTable() throws {
        // Clear, a literal, then code 300 while the next free entry is 258.
        var stream = LZWStream.Writer(minimumCodeSize: 8)
        stream.put(256, width: 9)
        stream.put(10, width: 9)
        stream.put(300, width: 9)
        stream.put(257, width: 9)
        expectDefect(stream)
    }

    @Test(
        "a minimum code size past the format's 8 is refused (by giflib, reading the descriptor)",
        arguments: [9, 11, 12])
    func codeSizePastEight(minimumCodeSize: Int) throws {
        var stream = LZWStream.Writer(minimumCodeSize: minimumCodeSize)
        stream.put(1 << minimumCodeSize, width: minimumCodeSize + 1)
        stream.put(1, width: minimumCodeSize + 1)
        stream.finish()
        let frame = LZWStream.frame(width: 1, height: 1, stream: stream.bytes, minimumCodeSize: minimumCodeSize)
        let data = LZWStream.file(width: 1, height: 1, frames: [frame])
        // giflib's own code for it, D_GIF_ERR_READ_FAILED, makes it `truncatedData`.
        let error = #expect(throws: ImageDecoders.GIF.Error.self) { try ImageDecoders.GIF().decode(data) }
        #expect(error?.description.contains("Failed to read") == true)
    }

    @Test("the first code after a clear must be a literal")
    func nonLiteralAfterClear() throws {
        var stream = LZWStream.Writer(minimumCodeSize: 8)
        stream.put(256, width: 9)
        stream.put(258, width: 9)  // the next free entry, but there is no previous string to extend
        expectDefect(stream)
    }

    /// Expects a 4×4 frame of `stream` to fail as an image defect (invalidData with giflib's message).
    private func expectDefect(_ stream: LZWStream.Writer, sourceLocation: SourceLocation = #_sourceLocation) {
        var stream = stream
        stream.finish()  // The last code's partial byte too: a cut code would be a truncation, not a defect.
        let data = LZWStream.file(
            width: 4, height: 4, frames: [LZWStream.frame(width: 4, height: 4, stream: stream.bytes)])
        let error = #expect(throws: ImageDecoders.GIF.Error.self, sourceLocation: sourceLocation) {
            try ImageDecoders.GIF().decode(data)
        }
        guard case let .invalidData(message) = error else {
            Issue.record("expected invalidData, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(message.contains("defective"), sourceLocation: sourceLocation)
    }

    @Test("an end code before the last pixel, or data that ends before it, is a truncation")
    func truncatedStreams() throws {
        var early = LZWStream.Writer(minimumCodeSize: 8)
        early.put(256, width: 9)
        early.put(1, width: 9)
        early.put(257, width: 9)
        let cut = LZWStream.codes(for: Self.noise(count: 100, seed: 6), minimumCodeSize: 8, clearWhenFull: false)
        for stream in [early.bytes, Array(cut.bytes.prefix(cut.bytes.count / 2))] {
            let data = LZWStream.file(
                width: 10, height: 10, frames: [LZWStream.frame(width: 10, height: 10, stream: stream)])
            let error = #expect(throws: ImageDecoders.GIF.Error.self) { try ImageDecoders.GIF().decode(data) }
            guard case .truncatedData = error else {
                Issue.record("expected truncatedData, got \(String(describing: error))")
                continue
            }
        }
    }

    private func expectDecodes(_ data: Data, width: Int, height: Int, indices: [UInt8]) throws {
        let image = try ImageDecoders.GIF().decode(data).image
        #expect(image.width == width && image.height == height)
        let expected = LZWStream.gray(indices)
        let actual = image.bytes
        #expect(actual.count == expected.count)
        if let index = actual.indices.first(where: { $0 < expected.count && actual[$0] != expected[$0] }) {
            Issue.record("first differing byte at \(index) (pixel \(index / 4)) of \(expected.count)")
        }
    }

    /// `count` palette indices from a seeded generator (SplitMix64).
    static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }
}

/// A GIF LZW encoder for tests: a dictionary of (prefix code, byte) pairs, code widths as a decoder reads them.
enum LZWStream {
    /// Codes packed least significant bit first.
    struct Writer {
        let minimumCodeSize: Int
        private(set) var bytes: [UInt8] = []
        private var buffer: UInt32 = 0
        private var count = 0

        init(minimumCodeSize: Int) {
            self.minimumCodeSize = minimumCodeSize
        }

        mutating func put(_ code: Int, width: Int) {
            buffer |= UInt32(code) << count
            count += width
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }

        /// Flushes the last partial byte.
        mutating func finish() {
            if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            buffer = 0
            count = 0
        }

        /// Appends raw bytes after the stream (what a decoder must skip).
        mutating func write(_ junk: [UInt8], extraBytes: Int) {
            finish()
            bytes += junk + [UInt8](repeating: 0x5A, count: extraBytes)
        }
    }

    /// The stream of `indices`: a clear code, the codes, the end code. With `clearWhenFull`, a clear code follows
    /// every time the table reaches 4,096 entries; without, the full table is kept (a "deferred clear").
    static func codes(for indices: [UInt8], minimumCodeSize: Int, clearWhenFull: Bool) -> Writer {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var writer = Writer(minimumCodeSize: minimumCodeSize)
        var dictionary: [Int: Int] = [:]
        var next = end + 1
        // The width the decoder reads the coming code with: it counts the codes read since the clear and widens
        // when the count passes the largest code of the width (giflib's rule, the usual one from 2 bits up).
        var running = end + 1
        var codeSize = minimumCodeSize + 1
        func emit(_ code: Int) {
            writer.put(code, width: codeSize)
            if running <= 4096 {
                running += 1
                if running > 1 << codeSize && codeSize < 12 { codeSize += 1 }
            }
        }
        writer.put(clear, width: minimumCodeSize + 1)
        guard var current = indices.first.map(Int.init) else {
            writer.put(end, width: minimumCodeSize + 1)
            writer.finish()
            return writer
        }
        for byte in indices.dropFirst() {
            let key = current << 8 | Int(byte)
            if let code = dictionary[key] {
                current = code
                continue
            }
            emit(current)
            if next < 4096 {
                dictionary[key] = next
                next += 1
            } else if clearWhenFull {
                writer.put(clear, width: codeSize)
                dictionary = [:]
                next = end + 1
                running = end + 1
                codeSize = minimumCodeSize + 1
            }
            current = Int(byte)
        }
        emit(current)
        writer.put(end, width: codeSize)
        writer.finish()
        return writer
    }

    /// An image descriptor at (0, 0), no local table, then the stream in sub-blocks of up to 255 bytes.
    static func frame(
        width: Int, height: Int, stream: [UInt8], interlaced: Bool = false, minimumCodeSize: Int = 8
    )
        -> [UInt8]
    {
        var bytes: [UInt8] = [0x2C, 0, 0, 0, 0] + GIFBytes.littleEndian(width) + GIFBytes.littleEndian(height)
        bytes += [interlaced ? 0x40 : 0, UInt8(minimumCodeSize)]
        var offset = 0
        while offset < stream.count {
            let count = min(255, stream.count - offset)
            bytes.append(UInt8(count))
            bytes += stream[offset..<offset + count]
            offset += count
        }
        return bytes + [0]
    }

    /// A GIF89a file with a 256-entry grayscale global table (index i is (i, i, i)).
    static func file(width: Int, height: Int, frames: [[UInt8]]) -> Data {
        var bytes = Array("GIF89a".utf8) + GIFBytes.littleEndian(width) + GIFBytes.littleEndian(height)
        bytes += [0xF7, 0, 0]
        for index in 0..<256 { bytes += [UInt8(index), UInt8(index), UInt8(index)] }
        for frame in frames { bytes += frame }
        return Data(bytes + [0x3B])
    }

    /// A one-frame GIF of `indices` (in display order); interlaced, the rows are stored pass by pass.
    static func gif(
        width: Int, height: Int, indices: [UInt8], clearWhenFull: Bool, interlaced: Bool = false,
        minimumCodeSize: Int = 8
    ) -> Data {
        var stored = indices
        if interlaced {
            stored = []
            for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
                for row in stride(from: start, to: height, by: step) {
                    stored += indices[row * width..<(row + 1) * width]
                }
            }
        }
        let stream = codes(for: stored, minimumCodeSize: minimumCodeSize, clearWhenFull: clearWhenFull)
        return file(
            width: width, height: height,
            frames: [
                frame(
                    width: width, height: height, stream: stream.bytes, interlaced: interlaced,
                    minimumCodeSize: minimumCodeSize)
            ])
    }

    /// The RGBA bytes the grayscale table gives `indices`.
    static func gray(_ indices: [UInt8]) -> [UInt8] {
        indices.flatMap { [$0, $0, $0, 255] }
    }
}
