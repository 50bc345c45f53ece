import CBenchCodecs
import ColorLCMS
import DecoderAVIF
import DecoderGIF
import DecoderJPEG
import DecoderPNG
import DecoderSVG
import DecoderWebP
import Foundation
import NukeCore

/// Decode per format through our decoders and through the pipeline, against tight loops over the same C
/// libraries (12 MP HEIC and JPEG XL in `CodecBenchmarks+HEIFJXL.swift`); and the 12 MP JPEG → 256 px thumbnail
/// against libvips.
struct CodecBenchmarks {
    let runs: Int
    let largeRuns: Int
    let only: String?
    let report: Report

    func run() async throws -> [Comparison] {
        var results: [Comparison] = []
        let photo = try TestImages.photo(width: 1024, height: 768)
        let inputs: [(format: String, data: Data)] = [
            ("png", try encoded(ImageEncoders.PNG().encode(photo), "PNG")),
            ("jpeg", try encoded(ImageEncoders.JPEG(quality: 0.9).encode(photo), "JPEG")),
            ("webp", try encoded(ImageEncoders.WebP(quality: 0.9).encode(photo), "WebP")),
            ("svg", TestImages.svg(width: 1024, height: 768)),
            ("gif", try gif(rgba: photo.withUnsafeBytes { Array($0) }, width: 1024, height: 768, frameCount: 1)),
            ("avif", try encoded(ImageEncoders.AVIF(quality: 0.8, speed: 8).encode(photo), "AVIF")),
        ]
        let pipeline = makePipeline()
        if selected("pipeline overhead") {
            // The pipeline's fixed cost per image (task graph, queue hops, registry), with a decoder that
            // does nothing; compared with calling that decoder directly.
            let empty = ImagePipeline {
                $0.makeImageDecoder = { _ in ImageDecoders.Empty() }
                $0.imageCache = nil
            }
            let tiny = Data([1, 2, 3])
            results.append(
                try await compare(
                    "pipeline overhead (ImageDecoders.Empty)", against: "direct decode() call", goal: "info",
                    runs: runs * 5,
                    ours: { _ = try await empty.image(for: ImageRequest(id: UUID().uuidString, data: { tiny })) },
                    reference: { _ = try ImageDecoders.Empty().decode(tiny) }))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
        }
        for (format, data) in inputs {
            let reference = referenceDecode(format: format, data: data)
            let name = "decode \(format) 1024×768"
            if selected(name) {
                results.append(
                    try await compare(
                        name, against: "C loop (\(library(format)))", goal: "≤ 1.10×", runs: runs,
                        ours: { _ = try decoder(format).decode(data) }, reference: reference))
                report.add(results[results.count - 1].benchRow(section: "codecs"))
            }
            let pipelineName = "pipeline \(format) 1024×768"
            if selected(pipelineName) {
                results.append(
                    try await compare(
                        pipelineName, against: "C loop (\(library(format)))", goal: "≤ 1.10×", runs: runs,
                        ours: { try await load(data, pipeline: pipeline) }, reference: reference))
                report.add(results[results.count - 1].benchRow(section: "codecs"))
            }
        }

        let animationName = "iterate gif 100 frames 480×360"
        if selected(animationName) {
            // A 680×360 photo panned 2 pixels a frame through a 480×360 screen: every frame covers the screen.
            let wide = try TestImages.photo(width: 680, height: 360)
            var rgba: [UInt8] = []
            wide.withUnsafeBytes { pixels in
                for frame in 0..<100 {
                    for y in 0..<360 {
                        let start = y * wide.bytesPerRow + frame * 2 * 4
                        rgba.append(contentsOf: pixels[start..<(start + 480 * 4)])
                    }
                }
            }
            let animated = try gif(rgba: rgba, width: 480, height: 360, frameCount: 100)
            results.append(
                try await compare(
                    animationName, against: "C loop (giflib + compositing)", goal: "≤ 1.10×", runs: largeRuns,
                    ours: {
                        var count = 0
                        try ImageDecoders.GIF.Animation(data: animated).forEachFrame { _ in count += 1 }
                        guard count == 100 else { throw BenchmarkError(description: "\(count) frames") }
                    },
                    reference: {
                        var count: Int32 = 0
                        try check(animated) { CBenchCodecs_decodeGIF($0, $1, 1000, &count) }
                        guard count == 100 else { throw BenchmarkError(description: "\(count) frames") }
                    }))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
        }

        let large = try encoded(
            ImageEncoders.JPEG(quality: 0.9).encode(try TestImages.photo(width: 4000, height: 3000)), "large JPEG")
        if selected("decode jpeg 4000×3000") {
            results.append(
                try await compare(
                    "decode jpeg 4000×3000", against: "C loop (TurboJPEG)", goal: "≤ 1.10×", runs: largeRuns,
                    ours: { _ = try ImageDecoders.JPEG().decode(large) },
                    reference: { try turboJPEG(large, scale: 1) }))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
        }
        for thumbnail in [nil, ImageRequest.ThumbnailOptions(maxPixelSize: 256)] {
            let name = "decode jpeg 4000×3000 Display P3 → sRGB" + (thumbnail == nil ? "" : ", 1/8 for 256")
            if selected(name) {
                results.append(try await displayP3Conversion(name, thumbnail: thumbnail))
                report.add(results[results.count - 1].benchRow(section: "codecs"))
            }
        }
        if selected("pipeline jpeg 4000×3000") {
            results.append(
                try await compare(
                    "pipeline jpeg 4000×3000", against: "C loop (TurboJPEG)", goal: "≤ 1.10×", runs: largeRuns,
                    ours: { try await load(large, pipeline: pipeline) },
                    reference: { try turboJPEG(large, scale: 1) }))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
        }
        results += try await runHEIFAndJXL(pipeline: pipeline)
        let thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: 256)
        if selected("pipeline jpeg 4000×3000 → 256") {
            results.append(
                try await compare(
                    "pipeline jpeg 4000×3000 → 256", against: "C loop (TurboJPEG 1/8)", goal: "≤ 1.10×",
                    runs: largeRuns,
                    ours: { try await load(large, pipeline: pipeline, thumbnail: thumbnail) },
                    reference: { try turboJPEG(large, scale: 8) }))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
            guard CBenchCodecs_vipsStart() == 0 else { throw BenchmarkError(description: "libvips failed to start") }
            results.append(
                try await compare(
                    "pipeline jpeg 4000×3000 → 256", against: "vips_thumbnail_buffer", goal: "≤ 0.50×",
                    runs: largeRuns,
                    ours: { try await load(large, pipeline: pipeline, thumbnail: thumbnail) },
                    reference: { try vipsThumbnail(large, width: 256) }))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
        }
        let progressive = try encoded(
            ImageEncoders.JPEG(quality: 0.9, isProgressive: true).encode(
                try TestImages.photo(width: 4000, height: 3000)), "large progressive JPEG")
        if selected("pipeline progressive jpeg 4000×3000 → 256") {
            results.append(
                try await compare(
                    "pipeline progressive jpeg 4000×3000 → 256", against: "C loop (TurboJPEG 1/8)",
                    goal: "≤ 1.10×", runs: largeRuns,
                    ours: { try await load(progressive, pipeline: pipeline, thumbnail: thumbnail) },
                    reference: { try turboJPEG(progressive, scale: 8) }))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
            guard CBenchCodecs_vipsStart() == 0 else { throw BenchmarkError(description: "libvips failed to start") }
            results.append(
                try await compare(
                    "pipeline progressive jpeg 4000×3000 → 256", against: "vips_thumbnail_buffer", goal: "≤ 0.50×",
                    runs: largeRuns,
                    ours: { try await load(progressive, pipeline: pipeline, thumbnail: thumbnail) },
                    reference: { try vipsThumbnail(progressive, width: 256) }))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
        }
        return results
    }

    /// A 12 MP JPEG with a Display P3 profile decoded (at full size, or DCT-scaled for `thumbnail` as a pipeline
    /// does) and converted to sRGB by `LCMSColorConverter` as a pipeline with it does: at full size the decoder
    /// converts bands of rows as libjpeg writes them (`ImageDecodingContext.colorConverter`), a thumbnail is
    /// converted after decoding; against the same decode alone.
    private func displayP3Conversion(
        _ name: String, thumbnail: ImageRequest.ThumbnailOptions?
    ) async throws -> Comparison {
        // The profile the ColorLCMS tests use, built with lcms2 (scripts/make-display-p3-icc.c).
        let profileURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Tests/ColorLCMSTests/Fixtures/DisplayP3.icc")
        var photo = try TestImages.photo(width: 4000, height: 3000)
        photo.colorProfile = .icc(try Data(contentsOf: profileURL))
        let data = try encoded(ImageEncoders.JPEG(quality: 0.9).encode(photo), "Display P3 JPEG")
        let converter = LCMSColorConverter()
        var request = ImageRequest(id: "p3", data: { data })
        request.thumbnail = thumbnail
        var context = ImageDecodingContext(request: request, data: data)
        guard let decoder = ImageDecoders.JPEG(context: context) else {
            throw BenchmarkError(description: "no JPEG decoder for the Display P3 input")
        }
        context.colorConverter = converter
        guard let converting = ImageDecoders.JPEG(context: context) else {
            throw BenchmarkError(description: "no JPEG decoder for the Display P3 input")
        }
        return try await compare(
            name, against: "the same decode, not converted", goal: "≤ 1.15×", runs: largeRuns,
            ours: {
                var image = try converting.decode(data).image
                if image.colorProfile != nil {
                    try converter.convertToSRGB(&image)  // A thumbnail: after decoding, in place.
                }
                guard image.colorProfile == nil else {
                    throw BenchmarkError(description: "not converted")
                }
            },
            reference: {
                guard try decoder.decode(data).image.colorProfile != nil else {
                    throw BenchmarkError(description: "no profile decoded")
                }
            })
    }

    func selected(_ name: String) -> Bool {
        guard let only else { return true }
        return name.localizedCaseInsensitiveContains(only)
    }

    func encoded(_ data: Data?, _ what: String) throws -> Data {
        guard let data else { throw BenchmarkError(description: "could not encode the \(what) input") }
        return data
    }

    private func library(_ format: String) -> String {
        ["png": "libpng", "jpeg": "TurboJPEG", "webp": "libwebp", "svg": "librsvg", "gif": "giflib", "avif": "libavif"][
            format] ?? format
    }

    private func decoder(_ format: String) -> any ImageDecoding {
        switch format {
        case "png": ImageDecoders.PNG()
        case "jpeg": ImageDecoders.JPEG()
        case "webp": ImageDecoders.WebP()
        case "gif": ImageDecoders.GIF()
        case "avif": ImageDecoders.AVIF()
        default: ImageDecoders.SVG()
        }
    }

    private func makePipeline() -> ImagePipeline {
        let registry = ImageDecoderRegistry()
        ImageDecoders.PNG.register(in: registry)
        ImageDecoders.JPEG.register(in: registry)
        ImageDecoders.WebP.register(in: registry)
        ImageDecoders.SVG.register(in: registry)
        ImageDecoders.GIF.register(in: registry)
        ImageDecoders.AVIF.register(in: registry)
        ImageDecoders.HEIF.register(in: registry)
        ImageDecoders.JXL.register(in: registry)
        return ImagePipeline {
            $0.makeImageDecoder = { registry.decoder(for: $0) }
            $0.imageCache = nil
        }
    }

    /// Loads in-memory data through the whole pipeline (task graph, queues, decoder registry), no caches.
    func load(
        _ data: Data, pipeline: ImagePipeline, thumbnail: ImageRequest.ThumbnailOptions? = nil
    )
        async throws
    {
        var request = ImageRequest(id: "bench-\(UUID().uuidString)", data: { data })
        request.thumbnail = thumbnail
        let image = try await pipeline.image(for: request)
        guard image.width > 0 else { throw BenchmarkError(description: "empty image") }
    }

    private func referenceDecode(format: String, data: Data) -> () throws -> Void {
        switch format {
        case "png": { try check(data) { CBenchCodecs_decodePNG($0, $1) } }
        case "jpeg": { try turboJPEG(data, scale: 1) }
        case "webp": { try check(data) { CBenchCodecs_decodeWebP($0, $1) } }
        case "gif":
            {
                var count: Int32 = 0
                try check(data) { CBenchCodecs_decodeGIF($0, $1, 1, &count) }
            }
        case "avif": { try check(data) { CBenchCodecs_decodeAVIF($0, $1) } }
        default: { try check(data) { CBenchCodecs_renderSVG($0, $1, 1024, 768) } }
        }
    }

    /// `frameCount` opaque frames of packed RGBA as a GIF from giflib's encoder: 216 colours, 40 ms a frame.
    private func gif(rgba: [UInt8], width: Int, height: Int, frameCount: Int) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = CBenchCodecs_encodeGIF(rgba, Int32(width), Int32(height), Int32(frameCount), &output, &size)
        guard status == 0, let output else { throw BenchmarkError(description: "GIF encoding failed: \(status)") }
        defer { free(output) }
        return Data(bytes: output, count: size)
    }

    func check(_ data: Data, _ body: (UnsafePointer<UInt8>, Int) -> Int32) throws {
        let status = data.withUnsafeBytes { input in
            body(input.bindMemory(to: UInt8.self).baseAddress!, input.count)
        }
        guard status == 0 else { throw BenchmarkError(description: "reference decode failed: \(status)") }
    }

    private func turboJPEG(_ data: Data, scale: Int32) throws {
        var width: Int32 = 0
        var height: Int32 = 0
        try check(data) { CBenchCodecs_decodeJPEG($0, $1, scale, &width, &height) }
    }

    private func vipsThumbnail(_ data: Data, width: Int32) throws {
        var outputWidth: Int32 = 0
        var outputHeight: Int32 = 0
        let status = data.withUnsafeBytes { input in
            CBenchCodecs_vipsThumbnail(
                input.bindMemory(to: UInt8.self).baseAddress!, input.count, width, &outputWidth, &outputHeight)
        }
        guard status == 0, outputWidth == width else { throw BenchmarkError(description: "vips thumbnail failed") }
    }
}
