import DecoderJPEG
import DecoderPNG
import DecoderSVG
import DecoderWebP
import Foundation
import NukeCore
import NukeTestKit
import Testing

/// One pipeline with all four codecs registered in its own registry, loading real files through `file://`
/// URLs.
@Suite("Codecs through the pipeline")
struct CodecPipelineTests {
    /// A directory with a 120×80 image in each format (the SVG declares the same size).
    final class Files: Sendable {
        let directory: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("codecs-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var rgba: [UInt8] = []
            for y in 0..<80 {
                for x in 0..<120 {
                    rgba += x < 60 ? [220, 40, 40, 255] : [40, 40, UInt8(min(255, 120 + y)), 255]
                }
            }
            let image = try PlatformImage(width: 120, height: 80, rgba: rgba)
            try #require(ImageEncoders.PNG().encode(image)).write(to: url("png"))
            try #require(ImageEncoders.JPEG(quality: 0.9).encode(image)).write(to: url("jpeg"))
            try #require(ImageEncoders.WebP(quality: 0.9).encode(image)).write(to: url("webp"))
            let svg = """
                <svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">
                  <rect width="60" height="80" fill="rgb(220,40,40)"/>
                  <rect x="60" width="60" height="80" fill="rgb(40,40,160)"/>
                </svg>
                """
            try Data(svg.utf8).write(to: url("svg"))
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// The file of a format; the name has no extension, so only the content identifies it.
        func url(_ format: String) -> URL {
            directory.appendingPathComponent("image-\(format)")
        }
    }

    static let formats = ["png", "jpeg", "webp", "svg"]

    func makePipeline() -> ImagePipeline {
        let registry = ImageDecoderRegistry()
        ImageDecoders.PNG.register(in: registry)
        ImageDecoders.JPEG.register(in: registry)
        ImageDecoders.WebP.register(in: registry)
        ImageDecoders.SVG.register(in: registry)
        return ImagePipeline {
            $0.makeImageDecoder = { registry.decoder(for: $0) }
            $0.imageCache = nil
        }
    }

    @Test(
        "loads each format at full size with the left half red",
        arguments: [("png", AssetType.png), ("jpeg", .jpeg), ("webp", .webp), ("svg", .svg)])
    func fullSize(_ format: String, type: AssetType) async throws {
        let files = try Files()
        let response = try await makePipeline().imageTask(with: files.url(format)).response

        #expect(response.image.width == 120 && response.image.height == 80)
        let pixel = response.image.pixel(x: 20, y: 40)
        #expect(ImageComparison.isClose(pixel, to: .init(r: 220, g: 40, b: 40), tolerance: 12))
        #expect(response.container.type == type)
    }

    @Test("applies processors to each format", arguments: formats)
    func processors(_ format: String) async throws {
        let files = try Files()
        let flip = ImageProcessors.Anonymous(id: "mark") { image in
            var image = image
            image.setPixel(.init(r: 0, g: 255, b: 0), x: 0, y: 0)
            return image
        }

        let image = try await makePipeline().image(for: ImageRequest(url: files.url(format), processors: [flip]))

        #expect(image.pixel(x: 0, y: 0) == PlatformImage.RGBA(r: 0, g: 255, b: 0))
        #expect(image.width == 120)
    }

    /// JPEG decodes at the DCT scale covering the target (1/2 → 60×40), WebP and SVG at exactly the target,
    /// PNG at full size; the pipeline's resize makes every one exact.
    @Test(
        "honours thumbnails exactly, scaling while decoding where the codec can",
        arguments: [("png", 45, 30), ("jpeg", 45, 30), ("webp", 45, 30), ("svg", 45, 30)])
    func thumbnails(_ expectation: (format: String, width: Int, height: Int)) async throws {
        let files = try Files()
        var request = ImageRequest(url: files.url(expectation.format))
        request.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 45)

        let image = try await makePipeline().image(for: request)

        #expect(image.width == expectation.width && image.height == expectation.height, "\(expectation.format)")
    }

    @Test("decoders register through their init(context:) function references too")
    func functionReferences() throws {
        let files = try Files()
        let registry = ImageDecoderRegistry()
        registry.register(ImageDecoders.PNG.init(context:))
        registry.register(ImageDecoders.JPEG.init(context:))
        registry.register(ImageDecoders.WebP.init(context:))
        registry.register(ImageDecoders.SVG.init(context:))

        for format in Self.formats {
            let data = try Data(contentsOf: files.url(format))
            let context = ImageDecodingContext(request: ImageRequest(url: files.url(format)), data: data)
            #expect(try registry.decoder(for: context)?.decode(data).image.width == 120, "\(format)")
        }
    }

    @Test("corrupt data fails with decodingFailed carrying the codec's error")
    func corrupt() async throws {
        let files = try Files()
        let data = try Data(contentsOf: files.url("png"))
        try data.prefix(data.count / 2).write(to: files.url("png"))

        let error = await #expect(throws: ImagePipeline.Error.self) {
            try await makePipeline().image(for: files.url("png"))
        }
        guard case let .decodingFailed(_, _, underlying) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(underlying is ImageDecoders.PNG.Error)
    }
}

/// A leading resize lets the codec scale while decoding.
@Suite struct LeadingResizeDecodingTests {
    /// Records the thumbnail each decode was asked for.
    private final class Recorder: @unchecked Sendable {
        // @unchecked: `values` is only touched under `lock`.
        private let lock = NSLock()
        private var values: [ImageRequest.ThumbnailOptions?] = []
        func record(_ value: ImageRequest.ThumbnailOptions?) { lock.withLock { values.append(value) } }
        var all: [ImageRequest.ThumbnailOptions?] { lock.withLock { values } }
    }

    @Test(arguments: [
        (ImageProcessors.Resize(width: 100), 100, 75),
        (
            ImageProcessors.Resize(
                size: CGSize(width: 90, height: 90), unit: .pixels, contentMode: .aspectFill, crop: true), 90, 90
        ),
        (ImageProcessors.Resize(height: 60), 80, 60),
    ])
    func jpegDecodesAtTheResizedSize(resize: ImageProcessors.Resize, width: Int, height: Int) async throws {
        // Given a 1600×1200 JPEG
        var source = try PlatformImage(width: 1600, height: 1200)
        source.withUnsafeMutableBytes { bytes in
            for index in stride(from: 0, to: bytes.count, by: 4) {
                bytes[index] = UInt8(index / 4 % 1600 * 255 / 1599)
                bytes[index + 1] = 120
                bytes[index + 2] = 60
                bytes[index + 3] = 255
            }
        }
        let jpeg = try #require(ImageEncoders.JPEG(quality: 0.9).encode(source))
        let url = try #require(URL(string: "data:image/jpeg;base64,\(jpeg.base64EncodedString())"))
        let recorder = Recorder()
        let pipeline = ImagePipeline {
            $0.imageCache = nil
            $0.makeImageDecoder = { context in
                recorder.record(context.request.thumbnail)
                return ImageDecoders.JPEG(context: context)
            }
        }

        // When it is requested with a leading resize
        let image = try await pipeline.image(for: ImageRequest(url: url, processors: [resize]))

        // Then the decoder was asked for the resized size, and the result is exact
        #expect(image.width == width && image.height == height)
        #expect(recorder.all.count == 1)
        let hint = try #require(recorder.all.first ?? nil)
        let target = hint.targetPixelSize(width: 1600, height: 1200)
        #expect(target.width <= max(width, 120) && target.height <= max(height, 90))
    }

    @Test func plainAndResizedRequestsStillShareTheDownload() async throws {
        let loader = MockDataLoader()
        var source = try PlatformImage(width: 64, height: 48)
        source.isOpaque = false
        loader.setResponse(for: Fixtures.url("a.png"), data: try #require(ImageEncoders.PNG().encode(source)))
        loader.isSuspended = true
        let registry = ImageDecoderRegistry()
        registry.registerDefaultPluginsForTests()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        }
        let plain = pipeline.imageTask(with: Fixtures.url("a.png"))
        let resized = pipeline.imageTask(
            with: ImageRequest(
                url: Fixtures.url("a.png"), processors: [ImageProcessors.Resize(width: 16, unit: .pixels)]))
        await loader.waitForLoads(count: 1)
        loader.isSuspended = false
        #expect(try await plain.image.width == 64)
        #expect(try await resized.image.width == 16)
        #expect(loader.createdTaskCount == 1)
    }
}

extension ImageDecoderRegistry {
    fileprivate func registerDefaultPluginsForTests() {
        ImageDecoders.PNG.register(in: self)
        ImageDecoders.JPEG.register(in: self)
    }
}
