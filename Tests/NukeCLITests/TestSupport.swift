import Foundation
import Nuke
import NukeTestKit
import Testing

/// A fresh directory under the system temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `data` to `name` in the directory and returns its URL.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// The names of the files in `subdirectory`, sorted.
    func files(in subdirectory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(subdirectory).path).sorted()
    }
}

enum Images {
    /// An opaque `width`×`height` image with a horizontal gradient (so resizing has something to average).
    static func gradient(width: Int, height: Int) throws -> PlatformImage {
        try PlatformImage(width: width, height: height, isOpaque: true) { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    buffer[index] = UInt8(x * 255 / max(1, width - 1))
                    buffer[index + 1] = UInt8(y * 255 / max(1, height - 1))
                    buffer[index + 2] = 128
                    buffer[index + 3] = 255
                }
            }
        }
    }

    static func png(width: Int, height: Int) throws -> Data {
        try #require(ImageEncoders.PNG().encode(try gradient(width: width, height: height)))
    }

    static func jpeg(width: Int, height: Int) throws -> Data {
        try #require(ImageEncoders.JPEG().encode(try gradient(width: width, height: height)))
    }

    /// Decodes `file` with the default decoders.
    static func decode(_ file: URL) throws -> PlatformImage {
        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        let data = try Data(contentsOf: file)
        let decoder = try #require(
            registry.decoder(for: ImageDecodingContext(request: ImageRequest(url: file), data: data)))
        return try decoder.decode(data).image
    }
}
