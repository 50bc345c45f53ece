import Foundation
import Nuke
import NukeTestKit
import Testing

/// The images the compatibility tests' "app" shows, encoded with the umbrella's encoders.
enum SampleImages {
    static let width = 64
    static let height = 48

    /// A solid red `width`×`height` PNG.
    static func png(width: Int = width, height: Int = height) throws -> Data {
        let image = Fixtures.solidImage(width: width, height: height, color: .init(r: 200, g: 40, b: 40))
        return try #require(ImageEncoders.PNG().encode(image))
    }

    /// A solid blue `width`×`height` JPEG.
    static func jpeg(width: Int = width, height: Int = height) throws -> Data {
        var image = Fixtures.solidImage(width: width, height: height, color: .init(r: 40, g: 40, b: 200))
        image.isOpaque = true
        return try #require(ImageEncoders.JPEG().encode(image))
    }
}

/// The app's image backend: a loopback HTTP server on 127.0.0.1 serving a PNG, a JPEG, a 404 and a gated image.
final class AppBackend: Sendable {
    let server: LoopbackHTTPServer
    /// Holds `/gated.png` until opened.
    let gate = ResponseGate()

    init() throws {
        let png = try SampleImages.png()
        let gate = self.gate
        // Cacheable for an hour, as image CDNs serve them: the pipeline's disk cache follows these headers.
        let pngHeaders = ["Content-Type": "image/png", "Cache-Control": "max-age=3600"]
        let jpegHeaders = ["Content-Type": "image/jpeg", "Cache-Control": "max-age=3600"]
        server = try LoopbackHTTPServer(routes: [
            "/photo.png": .data(png, headers: pngHeaders),
            "/other.png": .data(try SampleImages.png(width: 20, height: 10), headers: pngHeaders),
            "/photo.jpg": .data(try SampleImages.jpeg(), headers: jpegHeaders),
            "/missing.png": .status(404),
            "/garbage.png": .data(Data("not an image".utf8), headers: ["Content-Type": "image/png"]),
            "/gated.png": .handler { _ in
                // The server runs each connection on its own thread: blocking here holds only this response
                // (and no Swift concurrency thread, which the server's shutdown in `deinit` may be holding).
                gate.waitBlocking()
                return .data(png, headers: ["Content-Type": "image/png"])
            },
        ])
    }

    deinit { gate.open() }

    var pngURL: URL { server.url("/photo.png") }
    var otherURL: URL { server.url("/other.png") }
    var jpegURL: URL { server.url("/photo.jpg") }
    var missingURL: URL { server.url("/missing.png") }
    var garbageURL: URL { server.url("/garbage.png") }
    var gatedURL: URL { server.url("/gated.png") }

    /// How many requests reached `path`.
    func requestCount(_ path: String) -> Int { server.requests(for: path).count }
}

/// A pipeline set up the way a Nuke app on Linux sets one up: `CurlDataLoader()` (what `setUpShared()` uses;
/// FoundationNetworking's sessions share work that a large transfer in another test can hold up), its own
/// `ImageCache`, and the default codecs registered in a private registry (never the shared one). `DataLoader`
/// has tests of its own in this target.
func makeAppPipeline(
    delegate: (any ImagePipeline.Delegate)? = nil,
    _ configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
) -> ImagePipeline {
    let registry = ImageDecoderRegistry()
    registry.registerDefaultCodecs()
    return ImagePipeline(delegate: delegate) {
        $0.dataLoader = CurlDataLoader()
        $0.imageCache = ImageCache()
        $0.makeImageDecoder = { registry.decoder(for: $0) }
        configure(&$0)
    }
}

/// A unique directory under the system's temporary directory; the caller removes it.
func makeTemporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("nuke-compat-\(UUID().uuidString)")
}

/// Holds server responses (on the server's own threads) until the test opens it.
final class ResponseGate: Sendable {
    private let condition = LockedCondition()

    /// Releases every held response, now and later.
    func open() { condition.open() }

    /// Blocks the calling (server) thread until ``open()``.
    func waitBlocking() { condition.waitUntilOpen() }
}

/// An `NSCondition` and the flag it guards. `@unchecked Sendable`: the flag is only touched under the condition's lock.
private final class LockedCondition: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    func waitUntilOpen() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }
}
