import DecoderAVIF
import Foundation
import NukeCore
import Testing

/// Reads a committed fixture: `pillow/NAME` are the AVIF files of Pillow 11.3.0's test suite (from its source
/// distribution); `pillow-expected.json` is what Pillow decodes from them (`scripts/make-avif-expectations.py`).
func fixture(_ name: String) throws -> Data {
    let base = try #require(Bundle.module.resourceURL)
    return try Data(contentsOf: base.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// A Pillow test image.
func pillow(_ name: String) throws -> Data {
    try fixture("pillow/\(name)")
}

/// A decoding context for `data`.
func context(_ data: Data) -> ImageDecodingContext {
    ImageDecodingContext(request: ImageRequest(url: URL(fileURLWithPath: "/tmp/image")), data: data)
}

/// What Pillow decodes from one of its AVIF test files: a 16×16 grid of premultiplied samples per frame.
struct AVIFExpectation: Decodable, Sendable {
    var size: [Int]
    var frames: Int
    var durations: [Int]
    var grid: [[String]]

    static let all: [String: AVIFExpectation] = {
        guard let data = try? fixture("pillow-expected.json") else { return [:] }
        return (try? JSONDecoder().decode([String: AVIFExpectation].self, from: data)) ?? [:]
    }()

    /// The sample at grid position (i, j) of `frame`.
    func sample(frame: Int, i: Int, j: Int) -> PlatformImage.RGBA? {
        guard let value = UInt32(grid[frame][j * 16 + i], radix: 16) else { return nil }
        return .init(
            r: UInt8(value >> 24), g: UInt8(value >> 16 & 0xFF), b: UInt8(value >> 8 & 0xFF), a: UInt8(value & 0xFF))
    }

    /// The largest channel difference between `image` (turned by 180° first if `rotated180`) and the grid of
    /// `frame`.
    func largestDifference(_ image: PlatformImage, frame: Int, rotated180: Bool = false) -> Int {
        var largest = 0
        for j in 0..<16 {
            for i in 0..<16 {
                let x = Int((Double(i) + 0.5) * Double(image.width) / 16)
                let y = Int((Double(j) + 0.5) * Double(image.height) / 16)
                let point = rotated180 ? (image.width - 1 - x, image.height - 1 - y) : (x, y)
                guard let ours = image.pixel(x: point.0, y: point.1), let theirs = sample(frame: frame, i: i, j: j)
                else {
                    return Int.max
                }
                let pairs = [(ours.r, theirs.r), (ours.g, theirs.g), (ours.b, theirs.b), (ours.a, theirs.a)]
                largest = max(largest, pairs.map { abs(Int($0) - Int($1)) }.max() ?? 0)
            }
        }
        return largest
    }
}
