import DecoderJPEG
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// Reads a committed fixture (see `scripts/make-codec-fixtures.py`).
func fixture(_ name: String) throws -> Data {
    let base = try #require(Bundle.module.resourceURL)
    return try Data(contentsOf: base.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// The fixtures show a 64×48 image split into four quadrants of these colours (top left, top right,
/// bottom left, bottom right).
enum Quadrants {
    static let colors: [PlatformImage.RGBA] = [
        .init(r: 230, g: 30, b: 30), .init(r: 30, g: 200, b: 60), .init(r: 40, g: 60, b: 220),
        .init(r: 240, g: 230, b: 40),
    ]

    /// Checks the centre of each quadrant of `image` against the expected colours.
    static func expectUpright(_ image: PlatformImage, tolerance: Int, _ comment: Comment? = nil) {
        let points = [
            (image.width / 4, image.height / 4), (3 * image.width / 4, image.height / 4),
            (image.width / 4, 3 * image.height / 4), (3 * image.width / 4, 3 * image.height / 4),
        ]
        for (index, point) in points.enumerated() {
            let pixel = image.pixel(x: point.0, y: point.1)
            #expect(
                ImageComparison.isClose(pixel, to: colors[index], tolerance: tolerance),
                "quadrant \(index): \(String(describing: pixel)) \(comment.map { "\($0)" } ?? "")")
        }
    }
}

/// A decoding context for `data` with an optional thumbnail.
func context(_ data: Data, thumbnail: ImageRequest.ThumbnailOptions? = nil) -> ImageDecodingContext {
    var request = ImageRequest(url: URL(fileURLWithPath: "/tmp/image"))
    request.thumbnail = thumbnail
    return ImageDecodingContext(request: request, data: data)
}

/// The offset of the first SOFn marker's payload (after the two length bytes).
func startOfFrameOffset(in data: Data) -> Int? {
    let bytes = [UInt8](data)
    var index = 2
    while index + 3 < bytes.count {
        guard bytes[index] == 0xFF else { return nil }
        let marker = bytes[index + 1]
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        if (0xC0...0xC2).contains(marker) { return index + 4 }
        index += 2 + length
    }
    return nil
}
