import DecoderSVG
import Foundation
import NukeCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A decoding context for an SVG document.
func context(
    _ svg: String, url: String = "/tmp/image", mimeType: String? = nil,
    thumbnail: ImageRequest.ThumbnailOptions? = nil, scale: Float? = nil
) -> ImageDecodingContext {
    context(Data(svg.utf8), url: url, mimeType: mimeType, thumbnail: thumbnail, scale: scale)
}

func context(
    _ data: Data, url: String = "/tmp/image", mimeType: String? = nil,
    thumbnail: ImageRequest.ThumbnailOptions? = nil, scale: Float? = nil
) -> ImageDecodingContext {
    let fileURL = URL(fileURLWithPath: url)
    var request = ImageRequest(url: fileURL)
    request.thumbnail = thumbnail
    request.scale = scale
    let response = mimeType.map {
        URLResponse(url: fileURL, mimeType: $0, expectedContentLength: data.count, textEncodingName: nil)
    }
    return ImageDecodingContext(request: request, data: data, urlResponse: response)
}

/// Decodes `svg` through `init?(context:)`, like the pipeline does.
func render(_ svg: String, thumbnail: ImageRequest.ThumbnailOptions? = nil, scale: Float? = nil) throws -> PlatformImage
{
    let context = context(svg, thumbnail: thumbnail, scale: scale)
    let decoder = try #require(ImageDecoders.SVG(context: context))
    return try decoder.decode(context.data).image
}

/// The number of pixels with non-zero alpha.
func visiblePixelCount(_ image: PlatformImage) -> Int {
    var count = 0
    for y in 0..<image.height {
        for x in 0..<image.width where (image.pixel(x: x, y: y)?.a ?? 0) > 0 {
            count += 1
        }
    }
    return count
}

/// A 4×4 opaque red PNG.
let redPNG = Data(
    base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==")!

/// A TCP socket listening on 127.0.0.1 on a kernel-chosen port, that never accepts. A client that connects
/// completes the handshake with the kernel and waits in the accept queue, so ``hasPendingConnection`` shows
/// whether anyone connected — without waiting.
final class LoopbackListener {
    let port: Int
    private let socket: Int32

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(bound == 0 && listen(fd, 16) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }

    /// Connects to `port` on 127.0.0.1 and closes the connection once the kernel has completed it.
    static func connect(port: Int) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(result == 0)
    }

    /// `true` if a client has connected (checked with a zero-timeout poll).
    var hasPendingConnection: Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}
