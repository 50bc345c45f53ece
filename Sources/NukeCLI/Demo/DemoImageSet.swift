import Foundation
import Nuke

/// The demo's images, generated into a directory: photo-like JPEGs and WebPs in several sizes, PNG
/// illustrations with transparency, SVG icons and one animated WebP. Encoded with this package's encoders.
struct DemoImageSet {
    /// One served file.
    struct File: Sendable {
        /// The URL path, e.g. `/photos/photo-03.jpg`.
        let path: String
        let contentType: String
        let data: Data
    }

    let directory: URL
    let files: [File]

    /// What to generate: (kind, count, sizes cycled through).
    private enum Kind: Sendable {
        case jpeg, webp, png
    }

    private static let photoSizes = [(1024, 683), (800, 600), (640, 960), (960, 640), (720, 720), (480, 720)]

    /// Generates the set into `directory`, using every core.
    static func generate(in directory: URL) async throws -> DemoImageSet {
        var jobs: [(path: String, kind: Kind, width: Int, height: Int, seed: Int)] = []
        for index in 0..<14 {
            let size = photoSizes[index % photoSizes.count]
            jobs.append((String(format: "/photos/photo-%02d.jpg", index + 1), .jpeg, size.0, size.1, index))
        }
        for index in 0..<6 {
            let size = photoSizes[(index + 2) % photoSizes.count]
            jobs.append((String(format: "/photos/photo-%02d.webp", index + 15), .webp, size.0, size.1, index + 100))
        }
        for index in 0..<6 {
            let side = [384, 256, 320][index % 3]
            jobs.append((String(format: "/art/art-%02d.png", index + 1), .png, side, side, index + 200))
        }
        let encoded = try await withThrowingTaskGroup(of: File.self) { group in
            for job in jobs {
                group.addTask {
                    let image =
                        job.kind == .png
                        ? try SyntheticImages.illustration(size: job.width, seed: job.seed)
                        : try SyntheticImages.photo(width: job.width, height: job.height, seed: job.seed)
                    let (encoder, type): (any ImageEncoding, String) =
                        switch job.kind {
                        case .jpeg: (ImageEncoders.JPEG(quality: 0.82), "image/jpeg")
                        case .webp: (ImageEncoders.WebP(quality: 0.75), "image/webp")
                        case .png: (ImageEncoders.PNG(), "image/png")
                        }
                    guard let data = encoder.encode(image) else { throw DemoError("could not encode \(job.path)") }
                    return File(path: job.path, contentType: type, data: data)
                }
            }
            var files: [File] = []
            for try await file in group { files.append(file) }
            return files
        }
        var files = encoded.sorted { $0.path < $1.path }
        for icon in SVGIcons.all {
            files.append(File(path: "/icons/\(icon.name).svg", contentType: "image/svg+xml", data: Data(icon.svg.utf8)))
        }
        files.append(File(path: "/animated/spinner.webp", contentType: "image/webp", data: AnimatedWebPSample.data))
        for file in files {
            let url = directory.appendingPathComponent(String(file.path.dropFirst()))
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.data.write(to: url)
        }
        return DemoImageSet(directory: directory, files: files)
    }

    /// The total size of the files.
    var byteCount: Int { files.reduce(0) { $0 + $1.data.count } }
}

/// A failure of the demo, with a readable description.
struct DemoError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
