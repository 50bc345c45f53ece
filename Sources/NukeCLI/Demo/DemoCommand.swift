import Foundation
import Nuke

/// `nuke demo`: a scrolling feed played through the pipeline against a local server.
enum DemoCommand {
    static let summary = "Play a scrolling feed through the pipeline against a local server (no network)"

    static let help = """
        USAGE: nuke demo [--cells N] [-o FILE] [--keep] [--http-cache ignore|follow]

        Needs no network. Generates an image set into a temporary directory (photo-like JPEGs and WebPs in
        several sizes, PNG illustrations with transparency, SVG icons and an animated WebP), serves it from an
        HTTP/1.1 server on 127.0.0.1 (a free port, simulated latency and bandwidth, the caching headers of an
        image host: Cache-Control max-age, ETag, Last-Modified), and plays a scrolling session
        over a feed of cells through one ImagePipeline (libcurl loader, a disk cache in the temporary directory,
        every decoder): cells share images and ask for thumbnails of two sizes; a PrefetchWindow one viewport
        ahead drives an ImagePrefetcher; cells that scroll away before their image arrives cancel their task.

        Prints what the pipeline shared — requests vs downloads vs decodes, coalesced joins, cache hits,
        cancellations, latency — and writes a contact sheet of the feed (a PNG grid of the thumbnails in feed
        order; cells whose image never arrived stay grey).

        OPTIONS:
          --cells N       Cells in the feed (default 300).
          -o FILE         Where to write the contact sheet (default: nuke-demo-contact-sheet.png in the
                          temporary directory).
          --keep          Keep the generated images and the disk cache (their directory is printed).
          --http-cache P  ignore (default) or follow the server's caching headers in the disk cache (see
                          nuke fetch --help); either way each image is downloaded once.
          -h, --help      Show this help.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        var options = DemoOptions()
        do {
            let parsed = try Arguments(
                arguments, flags: ["--keep"], options: ["--cells", "-o", "--output", "--http-cache"])
            if parsed.wantsHelp {
                Console.shared.print(help)
                return ExitCode.success
            }
            guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
            options.cellCount = try parsed.positiveInteger("--cells") ?? options.cellCount
            options.keep = parsed.flags.contains("--keep")
            if let text = parsed.values["--http-cache"] {
                options.httpCachePolicy = try PipelineFactory.httpCachePolicy(argument: text)
            }
            if let path = parsed.values["-o"] ?? parsed.values["--output"] {
                let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
                options.contactSheet = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
            }
        } catch {
            return CLI.usageFailure(error, help: help)
        }
        do {
            return try await DemoRun(options: options).run()
        } catch {
            Console.shared.clearProgress()
            Console.shared.error("error: demo failed: \(error)")
            return ExitCode.failure
        }
    }
}

struct DemoOptions {
    var cellCount = 300
    var contactSheet = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-demo-contact-sheet.png")
    var keep = false
    var httpCachePolicy = ImagePipeline.HTTPCachePolicy.ignoreHeaders
}
