import DecoderHEIF
import Foundation
import NukeCore
import Testing

/// Reads a committed fixture (see `scripts/make-heif-fixtures.py`): HEIF files written by `heif-enc` from the
/// committed PNGs, and `pillow-heif/` files from pillow-heif's test suite (see the README there).
func fixture(_ name: String) throws -> Data {
    let base = try #require(Bundle.module.resourceURL)
    return try Data(contentsOf: base.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// A decoding context for `data`, with `thumbnail` as the request's thumbnail.
func context(_ data: Data, thumbnail: ImageRequest.ThumbnailOptions? = nil) -> ImageDecodingContext {
    var request = ImageRequest(url: URL(fileURLWithPath: "/tmp/image"))
    request.thumbnail = thumbnail
    return ImageDecodingContext(request: request, data: data)
}

/// What `heif-convert` decodes from fixture `name.heic`: the `name.rgba` file (an 8-byte header of width and
/// height, big-endian, then straight RGBA), premultiplied as the decoders' output is.
func reference(_ name: String) throws -> PlatformImage {
    let data = try fixture("\(name).rgba")
    let header = [UInt8](data.prefix(8))
    try #require(header.count == 8)
    let width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
    let height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
    return try PlatformImage(width: width, height: height, rgba: [UInt8](data.dropFirst(8)), isPremultiplied: false)
}
