import DecoderPNG
import Foundation
import LoaderCurl
import NukeCore

/// Prints the size of each image named on the command line (an `http(s):` or `file:` URL, or a path), loaded
/// through a pipeline with the app's own loader and decoder next to the workspace's libcurl loader and PNG decoder.
@main
struct ThirdPartyApp {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard !arguments.isEmpty else {
            print("usage: ThirdPartyApp URL|PATH…  (PNG or binary PPM)")
            return
        }
        let pipeline = makePipeline(registry: .shared)
        var failed = false
        for argument in arguments {
            let url = URL(string: argument).flatMap { $0.scheme == nil ? nil : $0 } ?? URL(fileURLWithPath: argument)
            do {
                let image = try await pipeline.image(for: url)
                print("\(argument): \(image.width)×\(image.height)")
            } catch {
                print("\(argument): \(error)")
                failed = true
            }
        }
        if failed { exit(1) }
    }

    /// A pipeline that loads through ``HeaderDataLoader`` over libcurl and decodes PNG and PPM, with its own
    /// memory cache. `registry` gets the two decoders.
    static func makePipeline(registry: ImageDecoderRegistry) -> ImagePipeline {
        ImageDecoders.PNG.register(in: registry)
        registry.register { PPMDecoder(context: $0) }
        return ImagePipeline {
            $0.dataLoader = HeaderDataLoader(base: CurlDataLoader(), headers: ["User-Agent": "ThirdPartyApp"])
            $0.imageCache = ImageCache()
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        }
    }
}
