import Foundation
import Nuke

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `nuke info`: what a file or URL holds.
enum InfoCommand {
    static let summary = "Show the format, size and animation of an image file or URL"

    static let help = """
        USAGE: nuke info FILE|URL [--loader curl|urlsession] [--http-cache ignore|follow]

        Loads the input (a path, or an http(s):, file: or data: URL), sniffs its format from the first bytes and
        decodes it with the PNG, JPEG, WebP, SVG, GIF, AVIF, HEIF and JPEG XL decoders. Prints the format, byte size, pixel
        size, scale, whether it has transparency, the colour profile (an embedded ICC profile's description, or CICP
        code points), the EXIF orientation of a JPEG (which the decoder applies, so the pixel size
        is the upright one), the bit depth of an AVIF, and for an animated WebP, GIF or AVIF the frame count, loop
        count (how many times it plays) and frame durations (for GIF as browsers show them: delays of 0 and 10 ms
        as 100 ms). For an http(s) URL it also shows the response's caching headers and what a pipeline's disk
        cache does with the response: by default (headers ignored) it is stored and served until evicted; what
        following the headers would do (stored or not, how long it stays fresh, how it is revalidated) is shown
        beside it.

        OPTIONS:
          --loader L     curl (default) or urlsession, for http(s) URLs.
          --http-cache P ignore (default) or follow: the disk cache policy to describe (see nuke fetch --help).
          -h, --help     Show this help.

        The exit status is 1 if the input can't be loaded or decoded (the message names it), 64 for a wrong
        command line.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let input: String
        let loader: PipelineFactory.Loader
        let policy: ImagePipeline.HTTPCachePolicy
        do {
            let parsed = try Arguments(arguments, options: ["--loader", "--http-cache"])
            if parsed.wantsHelp {
                Console.shared.print(help)
                return ExitCode.success
            }
            guard parsed.positionals.count == 1 else { throw UsageError("give exactly one file or URL") }
            input = parsed.positionals[0]
            loader = try parsed.values["--loader"].map(PipelineFactory.Loader.init(argument:)) ?? .curl
            policy = try parsed.values["--http-cache"].map(PipelineFactory.httpCachePolicy(argument:)) ?? .ignoreHeaders
        } catch {
            return CLI.usageFailure(error, help: help)
        }
        do {
            try await describe(input, loader: loader, policy: policy)
            return ExitCode.success
        } catch {
            Console.shared.error("error: \(input): \(error)")
            return ExitCode.failure
        }
    }

    private static func describe(
        _ input: String, loader: PipelineFactory.Loader, policy: ImagePipeline.HTTPCachePolicy
    ) async throws {
        let url = try Inputs.url(for: input)
        if url.isFileURL, !FileManager.default.fileExists(atPath: url.path) {
            throw UsageError("no such file: \(url.path)")
        }
        let pipeline = PipelineFactory.make(loader: loader)
        let (data, urlResponse) = try await pipeline.data(for: ImageRequest(url: url))
        let console = Console.shared
        let type = AssetType(data)
        console.print(Formatting.row("input", input))
        console.print(
            Formatting.row(
                "format",
                type.map { "\($0)" + ($0.mimeType.map { " (\($0))" } ?? "") } ?? "unknown (no known magic bytes)"))
        if let mimeType = urlResponse?.mimeType { console.print(Formatting.row("content type", mimeType)) }
        console.print(Formatting.row("bytes", "\(Formatting.bytes(data.count)) (\(data.count) bytes)"))
        if let http = urlResponse as? HTTPURLResponse { describeCaching(http, policy: policy) }

        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        let context = ImageDecodingContext(request: ImageRequest(url: url), data: data, urlResponse: urlResponse)
        guard let decoder = registry.decoder(for: context) else {
            throw UsageError("no decoder for \(type.map { "\($0)" } ?? "this data") (\(data.count) bytes)")
        }
        let image = try decoder.decode(data).image
        console.print(Formatting.row("pixel size", "\(image.width)×\(image.height)"))
        console.print(Formatting.row("scale", "\(image.scale)"))
        console.print(Formatting.row("alpha", image.isOpaque ? "opaque" : "may have transparency"))
        console.print(Formatting.row("colour profile", colorProfileDescription(image.colorProfile)))
        if type == .jpeg, let orientation = JPEGOrientation.read(data) {
            let name = JPEGOrientation.names[orientation] ?? "?"
            console.print(Formatting.row("EXIF orientation", "\(orientation) (\(name); applied by the decoder)"))
        }
        if type == .avif, let avif = try? ImageDecoders.AVIF.Animation(data: data) {
            console.print(Formatting.row("bit depth", "\(avif.bitDepth) (decoded to 8)"))
        }
        if let animation = try? ImageDecoders.Default.animation(for: data), animation.isAnimated {
            let durations = animation.frameDurations.map { String(Int(($0 * 1000).rounded())) }
            console.print(Formatting.row("frames", "\(animation.frameCount)"))
            console.print(
                Formatting.row("loop", animation.loopCount == 0 ? "forever" : "\(animation.loopCount) times"))
            console.print(
                Formatting.row(
                    "durations",
                    durations.joined(separator: ", ") + " ms (total \(Formatting.duration(animation.totalDuration)))"))
        }
    }

    /// The profile's name (an ICC profile's description tag, read by lcms2) or code points, and whether a pipeline
    /// converts it.
    static func colorProfileDescription(_ profile: ColorProfile?) -> String {
        guard let profile else { return "none (sRGB)" }
        let converter = LCMSColorConverter()
        var probe = PlatformImage()
        probe.colorProfile = profile
        let verdict: String
        do {
            _ = try converter.convertToSRGB(probe)
            verdict = "converted to sRGB by nuke fetch"
        } catch LCMSColorConverter.Error.unsupportedCICP {
            verdict = "not converted: no sRGB conversion for it here"
        } catch {
            verdict = "damaged: ignored, the pixels are taken as sRGB"
        }
        switch profile {
        case .icc(let data):
            let name = LCMSColorConverter.description(of: profile).map { "\"\($0)\"" } ?? "unreadable"
            return "ICC \(name), \(Formatting.bytes(data.count)) (\(verdict))"
        case .cicp:
            return "\(profile) (\(verdict))"
        }
    }

    /// The caching headers of `response` and the disk cache's decision under `policy`; under
    /// ``ImagePipeline/HTTPCachePolicy/ignoreHeaders``, also what following the headers would decide.
    private static func describeCaching(_ response: HTTPURLResponse, policy: ImagePipeline.HTTPCachePolicy) {
        let console = Console.shared
        let names = ["Cache-Control", "ETag", "Last-Modified", "Date", "Expires", "Age", "Vary"]
        let present = names.compactMap { name in response.value(forHTTPHeaderField: name).map { (name, $0) } }
        for (name, value) in present {
            console.print(Formatting.row(name, value))
        }
        let followingLabel: String
        switch policy {
        case .ignoreHeaders:
            console.print(Formatting.row("disk cache", "stored, served until evicted (headers ignored, the default)"))
            followingLabel = "following headers"
        case .followHeaders:
            followingLabel = "disk cache"
        }
        let now = Date()
        let metadata = HTTPCacheMetadata(response: response, requestTime: now, responseTime: now)
        guard metadata.isStorable else {
            let reason = metadata.cacheControl.noStore ? "no-store" : "status \(metadata.statusCode)"
            console.print(Formatting.row(followingLabel, "not stored (\(reason))"))
            return
        }
        let lifetime = metadata.freshnessLifetime
        let source =
            metadata.cacheControl.maxAge != nil
            ? "max-age"
            : metadata.expires != nil
                ? "Expires" : metadata.lastModified != nil ? "heuristic: 10 % of the time since Last-Modified" : nil
        var decision =
            switch metadata.decision(at: now) {
            case .fresh: "stored, fresh for \(Formatting.span(lifetime - metadata.currentAge(at: now)))"
            case .staleWhileRevalidate: "stored, stale: served while revalidating in the background"
            case .revalidate: "stored, revalidated before each use"
            case .reload: "stored, but loaded again on the next request (no freshness, no validator)"
            }
        if let source, metadata.decision(at: now) == .fresh { decision += " (\(source))" }
        if metadata.hasValidator {
            let validators = metadata.conditionalHeaders.keys.sorted().joined(separator: ", ")
            decision += "; revalidated with \(validators)"
        }
        console.print(Formatting.row(followingLabel, decision))
    }
}
