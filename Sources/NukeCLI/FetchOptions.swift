import CacheRedis
import Foundation
import Nuke

/// The parsed command line of `nuke fetch`.
struct FetchOptions {
    var inputs: [String]
    var processors: [any ImageProcessing] = []
    var format = OutputFormat.png
    var outputDirectory: String?
    var cacheDirectory: String?
    var redisURL: String?
    var loader = PipelineFactory.Loader.curl
    /// `--http-cache`: whether the disk cache follows the responses' caching headers; by default it ignores them,
    /// as a pipeline does: what is stored serves until evicted.
    var httpCachePolicy = ImagePipeline.HTTPCachePolicy.ignoreHeaders
    var concurrency: Int?
    /// `--keep-profile`: keep each image's colour profile (and embed it in the output) instead of converting to sRGB.
    var keepsColorProfile = false

    static let flags: Set<String> = ["--fit", "--fill", "--crop", "--keep-profile"]
    static let options: Set<String> = [
        "--resize", "--blur", "--format", "-o", "--output", "--cache-dir", "--redis", "--loader", "--concurrency",
        "--http-cache",
    ]

    /// - Throws: ``UsageError`` for missing inputs or invalid values.
    init(_ arguments: Arguments) throws {
        inputs = arguments.positionals
        guard !inputs.isEmpty else { throw UsageError("no inputs: give one or more URLs or paths") }
        let fit = arguments.flags.contains("--fit")
        let fill = arguments.flags.contains("--fill")
        let crop = arguments.flags.contains("--crop")
        guard !(fit && fill) else { throw UsageError("--fit and --fill exclude each other") }
        guard !(fit && crop) else { throw UsageError("--crop needs --fill (it crops the overflow of a fill)") }
        if let text = arguments.values["--resize"] {
            processors.append(
                try Self.resize(text, contentMode: fit || !(fill || crop) ? .aspectFit : .aspectFill, crop: crop))
        } else if fit || fill || crop {
            throw UsageError("--fit, --fill and --crop need --resize")
        }
        if let text = arguments.values["--blur"] {
            guard let radius = Int(text), radius > 0, radius <= 500 else {
                throw UsageError("--blur needs a radius from 1 to 500 pixels, got '\(text)'")
            }
            processors.append(ImageProcessors.GaussianBlur(radius: radius))
        }
        if let text = arguments.values["--format"] { format = try OutputFormat(argument: text) }
        outputDirectory = arguments.values["-o"] ?? arguments.values["--output"]
        cacheDirectory = arguments.values["--cache-dir"]
        redisURL = arguments.values["--redis"]
        if let redisURL {
            do { _ = try RedisEndpoint(url: redisURL) } catch { throw UsageError("--redis: \(error)") }
        }
        if let text = arguments.values["--loader"] { loader = try PipelineFactory.Loader(argument: text) }
        if let text = arguments.values["--http-cache"] {
            httpCachePolicy = try PipelineFactory.httpCachePolicy(argument: text)
            guard cacheDirectory != nil || redisURL != nil else {
                throw UsageError("--http-cache needs a disk cache (--cache-dir or --redis)")
            }
        }
        concurrency = try arguments.positiveInteger("--concurrency")
        keepsColorProfile = arguments.flags.contains("--keep-profile")
    }

    /// Parses `WxH` (both sides), `Wx` (width only) or `xH` (height only), in pixels.
    static func resize(
        _ text: String, contentMode: ImageProcessingOptions.ContentMode, crop: Bool
    ) throws -> ImageProcessors.Resize {
        let parts = text.lowercased().split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        let invalid = UsageError("--resize needs WxH, Wx or xH in pixels (e.g. 320x240), got '\(text)'")
        guard parts.count == 2 else { throw invalid }
        let width = parts[0].isEmpty ? nil : Int(parts[0])
        let height = parts[1].isEmpty ? nil : Int(parts[1])
        for (part, value) in zip(parts, [width, height]) where !part.isEmpty {
            guard let value, value > 0, value <= 65_535 else { throw invalid }
        }
        switch (width, height) {
        case let (width?, height?):
            return ImageProcessors.Resize(
                size: CGSize(width: width, height: height), unit: .pixels, contentMode: contentMode, crop: crop)
        case let (width?, nil):
            return ImageProcessors.Resize(width: CGFloat(width), unit: .pixels)
        case let (nil, height?):
            return ImageProcessors.Resize(height: CGFloat(height), unit: .pixels)
        case (nil, nil):
            throw invalid
        }
    }
}
