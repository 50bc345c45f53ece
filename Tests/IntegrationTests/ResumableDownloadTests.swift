import DecoderPNG
import Foundation
import LoaderCurl
import LoaderURLSession
import NukeCore
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resumable downloads end to end: a real loader, a real server that drops the connection part-way.
@Suite struct ResumableDownloadTests {
    enum Kind: String, CaseIterable, Sendable {
        case curl, urlSession

        func makeLoader() -> any DataLoading {
            switch self {
            case .curl: CurlDataLoader()
            case .urlSession: DataLoader()
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func droppedDownloadResumesWithARangeRequest(_ kind: Kind) async throws {
        // Given a PNG served by a server that drops the first transfer at 60 %
        var source = try PlatformImage(width: 64, height: 64)
        source.withUnsafeMutableBytes { bytes in
            for index in 0..<bytes.count {
                bytes[index] = index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13)
            }
        }
        let png = try #require(ImageEncoders.PNG().encode(source))
        let server = try LoopbackHTTPServer(routes: [
            "/image.png": .resource(png, etag: "\"v1\"", dropAfter: png.count * 6 / 10)
        ])
        defer { server.shutdown() }
        let registry = ImageDecoderRegistry()
        ImageDecoders.PNG.register(in: registry)
        let pipeline = ImagePipeline {
            $0.dataLoader = kind.makeLoader()
            $0.imageCache = nil
            $0.makeImageDecoder = { registry.decoder(for: $0) }
        }
        let url = server.url("/image.png")

        // When the first attempt fails and the image is requested again
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: url) }
        let image = try await pipeline.image(for: url)

        // Then the second request asked only for the rest, and the image is complete
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests.last?.range == "bytes=\(png.count * 6 / 10)-")
        #expect(requests.last?.header("If-Range") == "\"v1\"")
        #expect(image.width == 64 && image.height == 64)
        let isIdentical = image.bytes == source.bytes
        #expect(isIdentical)
    }
}
