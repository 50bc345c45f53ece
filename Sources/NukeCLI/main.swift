import Foundation
import NukeCore

// `nuke demo`: loads generated images through the pipeline from file: and data: URLs and reports what was
// shared. Needs no network and no codec plugin (it brings its own PPM decoder).

let arguments = CommandLine.arguments.dropFirst()
let usage = """
    USAGE: nuke demo

    Generates a few images in a temporary directory, loads them through an ImagePipeline from file: and
    data: URLs — repeated URLs, processor chains that share a prefix, a cancelled request, memory cache
    hits — and prints what the pipeline shared.
    """

guard arguments.first == "demo" else {
    if arguments.contains("--help") || arguments.contains("-h") {
        print(usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("error: unknown command '\(arguments.first ?? "")'\n\n\(usage)\n".utf8))
    exit(64)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}

/// Counts what the pipeline does, by wrapping its parts.
final class Counters: @unchecked Sendable {
    // @unchecked: every property is read and written under `lock`.
    private let lock = NSLock()
    private var values: [String: Int] = [:]

    func increment(_ key: String) { lock.withLock { values[key, default: 0] += 1 } }
    subscript(key: String) -> Int { lock.withLock { values[key, default: 0] } }
}

let counters = Counters()
let registry = ImageDecoderRegistry()
registry.register { context in
    PPMDecoder(context: context).map { decoder in
        counters.increment("decodes")
        return decoder
    }
}

let pipeline = ImagePipeline {
    $0.imageCache = ImageCache()
    $0.makeImageDecoder = { registry.decoder(for: $0) }
}

func invert(_ image: PlatformImage) -> PlatformImage? {
    counters.increment("processor: invert")
    var output = image
    output.withUnsafeMutableBytes { bytes in
        for index in stride(from: 0, to: bytes.count, by: 4) {
            let alpha = bytes[index + 3]
            for channel in 0..<3 { bytes[index + channel] = alpha &- bytes[index + channel] }
        }
    }
    return output
}

func halve(_ image: PlatformImage) -> PlatformImage? {
    counters.increment("processor: halve")
    let width = max(1, image.width / 2)
    let height = max(1, image.height / 2)
    var output = try? PlatformImage(width: width, height: height, scale: image.scale)
    for y in 0..<height {
        for x in 0..<width {
            if let pixel = image.pixel(x: x * 2, y: y * 2) { output?.setPixel(pixel, x: x, y: y) }
        }
    }
    return output
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-demo-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

var urls: [URL] = []
for (index, size) in [(640, 480), (320, 240), (1024, 768), (128, 128)].enumerated() {
    let url = directory.appendingPathComponent("image-\(index).ppm")
    try PPMDecoder.makeGradient(width: size.0, height: size.1, seed: index).write(to: url)
    urls.append(url)
}
let inline = PPMDecoder.makeGradient(width: 16, height: 16, seed: 7)
urls.append(URL(string: "data:image/x-portable-pixmap;base64,\(inline.base64EncodedString())")!)

let invertProcessor = ImageProcessors.Anonymous(id: "invert", invert)
let halveProcessor = ImageProcessors.Anonymous(id: "halve", halve)

print("nuke demo — \(urls.count) images (4 files, 1 data: URL) in \(directory.path)\n")
let start = Date()

// Every URL three times at once: plain, inverted, inverted + halved. The three share one read and one
// decode; the two processed variants share the inversion.
var tasks: [(String, ImageTask)] = []
for url in urls {
    let name = url.isFileURL ? url.lastPathComponent : "data: URL"
    tasks.append((name, pipeline.imageTask(with: url)))
    tasks.append((name + " [invert]", pipeline.imageTask(with: ImageRequest(url: url, processors: [invertProcessor]))))
    tasks.append(
        (
            name + " [invert, halve]",
            pipeline.imageTask(with: ImageRequest(url: url, processors: [invertProcessor, halveProcessor]))
        ))
}
// And one request that is cancelled right away.
let cancelled = pipeline.imageTask(with: urls[0].appendingPathExtension("missing"))
cancelled.cancel()

var failures = 0
for (name, task) in tasks {
    do {
        let response = try await task.response
        let image = response.image
        print("  loaded  \(name.padding(toLength: 30, withPad: " ", startingAt: 0)) \(image.width)×\(image.height)")
    } catch {
        failures += 1
        print("  FAILED  \(name): \(error)")
    }
}
do {
    _ = try await cancelled.response
} catch {
    print("  cancelled request ended with: \(error)")
}
let decodes = counters["decodes"]

// The same requests again: every one is a memory cache hit.
var hits = 0
for url in urls {
    let response = try await pipeline.imageTask(with: ImageRequest(url: url, processors: [invertProcessor])).response
    if response.cacheType == .memory { hits += 1 }
}

// A broken file gets a typed error naming the cause.
let broken = directory.appendingPathComponent("broken.ppm")
try Data("P6\n4000 3000\n255\n".utf8).write(to: broken)
do {
    _ = try await pipeline.image(for: broken)
} catch {
    print("  broken file: \(error)")
}

let elapsed = Date().timeIntervalSince(start)
print(
    """

    requests          \(tasks.count) (+1 cancelled, +\(urls.count) repeated, +1 broken)
    decodes           \(decodes) (one per image, shared by its three requests)
    inversions        \(counters["processor: invert"]) (shared by [invert] and [invert, halve])
    halvings          \(counters["processor: halve"])
    memory cache hits \(hits) of \(urls.count)
    failures          \(failures)
    time              \(String(format: "%.3f", elapsed)) s
    """)
exit(failures == 0 ? 0 : 1)
