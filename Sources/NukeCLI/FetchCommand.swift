import Foundation
import Nuke

/// `nuke fetch`: loads URLs and files concurrently through one pipeline and writes the results.
enum FetchCommand {
    static let summary = "Load images through one pipeline, process them and write them to a directory"

    static let help = """
        USAGE: nuke fetch URL|PATH... [--resize WxH] [--fit|--fill] [--crop] [--blur R]
                                      [--format png|jpeg|webp|avif|jxl] [-o DIR] [--cache-dir DIR] [--redis URL]
                                      [--http-cache ignore|follow] [--loader curl|urlsession] [--concurrency N]
                                      [--keep-profile]

        Loads every input concurrently through one ImagePipeline, so repeated URLs share one download and one
        decode, applies the processors and writes each image into DIR. Inputs are http(s):, file: or data: URLs,
        or paths of local files. Images with a colour profile (ICC or CICP, e.g. Display P3 or Adobe RGB) are
        converted to sRGB with lcms2 right after decoding, as libvips and imgproxy do.

        OPTIONS:
          --resize WxH        Resize to W×H pixels (Wx or xH constrain one side). Never upscales a raster image
                              (PNG, JPEG, WebP): one already smaller is kept at its size. An SVG is a vector
                              image, so it is drawn at the requested size, larger than its own if need be.
          --fit               Fit inside W×H (the default).
          --fill              Cover W×H; one side may be longer.
          --crop              Cover W×H and crop the overflow around the centre: exactly W×H (implies --fill).
          --blur R            Gaussian blur with radius R pixels, after resizing.
          --format F          png (default, lossless), jpeg, webp, avif or jxl (quality 0.85).
          -o, --output DIR    Write the images into DIR (created if needed; checked before anything is loaded).
                              Without it, images are loaded and processed but not written. An animated WebP, GIF,
                              AVIF or JPEG XL keeps its animation with --format webp, avif or jxl (every frame
                              processed alike, the durations kept, and for WebP and JPEG XL the loop count); PNG
                              and JPEG get its first frame, with a warning naming the input.
          --cache-dir DIR     Use a disk cache in DIR (created if needed; see `nuke cache`). Without it there is
                              no disk cache: only this run's memory cache.
          --redis URL         Share a cache through Redis (redis://[user:password@]host:port/db or unix:///path),
                              alone or behind --cache-dir: then the directory is read first and filled from Redis.
                              A Redis that is down or slow (a read waits up to 2 s) costs misses, never an
                              error.
          --http-cache P      ignore (default) or follow the responses' caching headers in the disk cache.
                              ignore: what the cache holds is used until evicted, with no request, as a Nuke
                              pipeline does by default (a second run downloads nothing it has, also offline).
                              follow: a private HTTP cache (RFC 9111): fresh entries are used, stale ones are
                              revalidated (If-None-Match / If-Modified-Since, a 304 reuses the stored bytes) or
                              loaded again, no-store responses are not stored. Needs --cache-dir or --redis.
          --loader L          curl (default; HTTP/2, connection reuse) or urlsession (Foundation).
          --concurrency N     At most N downloads at once (default 6).
          --keep-profile      Keep each image's colour profile instead of converting to sRGB, and embed it in the
                              output (PNG iCCP, JPEG APP2, WebP ICCP, AVIF colr).
          -h, --help          Show this help.

        OUTPUT NAMES: NAME-HASH.EXT, where NAME is the URL's last path component without its extension
        (characters other than letters, digits, - and _ become _; at most 40; "image" if empty), HASH the first
        8 hex digits of the 64-bit FNV-1a hash of the absolute URL, and EXT png, jpg, webp, avif or jxl. The same URL always
        gets the same name; repeated inputs are written once.

        OUTPUT: one line per input on stdout ("ok INPUT -> FILE (W×H, source)"), failures and warnings on stderr
        ("error: INPUT: cause", "warning: INPUT: …"), then a summary: requests, downloads, bytes, decodes, cache
        hits, errors and wall time. A progress bar is drawn on stderr when it is a terminal. The exit status is 1
        if any input failed or DIR can't be written ("nuke: cannot write to DIR: reason"), 64 for a wrong command
        line.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let options: FetchOptions
        do {
            let parsed = try Arguments(arguments, flags: FetchOptions.flags, options: FetchOptions.options)
            if parsed.wantsHelp {
                Console.shared.print(help)
                return ExitCode.success
            }
            options = try FetchOptions(parsed)
        } catch {
            return CLI.usageFailure(error, help: help)
        }
        do {
            return try await FetchRun(options: options).run()
        } catch {
            return CLI.failure(error)
        }
    }
}
