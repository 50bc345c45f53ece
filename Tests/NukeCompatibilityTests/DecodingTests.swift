import Foundation
import Nuke
import NukeTestKit
import Testing

/// An app's own synchronous decoder for a made-up "2-byte" format: width and height, one byte each.
struct TinyDecoder: ImageDecoding {
    init?(context: ImageDecodingContext) {
        guard context.data.count == 3, context.data.first == 0xAB else { return nil }
    }

    func decode(_ data: Data) throws -> ImageContainer {
        let bytes = [UInt8](data)
        let image = Fixtures.solidImage(width: Int(bytes[1]), height: Int(bytes[2]), color: .init(r: 0, g: 0, b: 0))
        return ImageContainer(image: image, type: "com.example.tiny", data: data)
    }
}

/// An app's own asynchronous decoder: decodes off the pipeline with `async` work.
struct AsyncTinyDecoder: AsyncImageDecoding {
    func decode(_ data: Data) async throws -> ImageContainer {
        await Task.yield()
        let bytes = [UInt8](data)
        guard bytes.count == 3 else { throw ImageDecodingError.unknown }
        let image = Fixtures.solidImage(width: Int(bytes[1]), height: Int(bytes[2]), color: .init(r: 0, g: 0, b: 0))
        return ImageContainer(image: image)
    }
}

/// `ImageDecoderRegistry`, decoding contexts, the built-in decoders and app-written ones.
@Suite struct DecodingTests {
    private let tiny = Data([0xAB, 6, 4])

    @Test func registryPicksTheAppDecoderAndUnregisters() throws {
        // Given
        let registry = ImageDecoderRegistry()
        let token: ImageDecoderRegistry.RegistrationToken = registry.register { TinyDecoder(context: $0) }
        let context = ImageDecodingContext(request: ImageRequest(url: nil), data: tiny)

        // When
        let decoder = try #require(registry.decoder(for: context))

        // Then
        #expect(try decoder.decode(tiny).image.width == 6)
        #expect(!decoder.isAsynchronous)  // Nuke's default.
        #expect(decoder.decodePartiallyDownloadedData(tiny) == nil)
        registry.unregister(token)
        #expect(registry.decoder(for: context) == nil)
        registry.registerDefaultCodecs()
        registry.clear()
        #expect(
            registry.decoder(for: ImageDecodingContext(request: ImageRequest(url: nil), data: try SampleImages.png()))
                == nil)
    }

    @Test func pipelineUsesAppDecodersSyncAndAsync() async throws {
        // Given in-memory data requests and a pipeline with the app's decoders
        let data = tiny
        let pipeline = makeAppPipeline { configuration in
            configuration.makeImageDecoder = { context in
                if context.request.imageID == "async" { return AsyncTinyDecoder() }
                return TinyDecoder(context: context)
            }
        }

        // When
        let sync = try await pipeline.imageTask(with: ImageRequest(id: "sync", data: { data })).response
        let async = try await pipeline.imageTask(with: ImageRequest(id: "async", data: { data })).response

        // Then
        #expect(sync.container.type == "com.example.tiny" && sync.image.height == 4)
        #expect(async.image.width == 6 && AsyncTinyDecoder().isAsynchronous)
        #expect(throws: ImageDecodingError.self) { try AsyncTinyDecoder().decode(data) }
    }

    @Test func contextsAndBuiltInDecoders() throws {
        // Given
        let png = try SampleImages.png()
        var context = ImageDecodingContext(
            request: ImageRequest(url: nil), data: png, isCompleted: false, urlResponse: nil, cacheType: .disk)
        context.previewPolicy = .disabled
        context.isCompleted = true

        // When
        let decoded = try ImageDecoders.Default().decode(png)
        let byContext = try #require(ImageDecoders.Default(context: context))
        let empty = ImageDecoders.Empty(assetType: .png, isProgressive: true)

        // Then
        #expect(decoded.image.width == SampleImages.width && !byContext.isAsynchronous)
        #expect(byContext.decodePartiallyDownloadedData(png.prefix(10)) == nil)
        #expect(
            try empty.decode(png).image.isEmpty && empty.isProgressive
                && empty.decodePartiallyDownloadedData(png) != nil)
        #expect(!ImageDecoders.Empty().isAsynchronous)
        #expect(try ImageDecoders.Empty().decode(png).type == nil)  // The given assetType, as in Nuke.
        #expect(context.previewPolicy == .disabled && context.cacheType == .disk && context.urlResponse == nil)
        #expect(context.data == png && context.request.url == nil)
        #expect([ImagePipeline.PreviewPolicy.incremental, .thumbnail, .disabled].contains(.default(for: png)))
        #expect(!ImageDecodingError.unknown.description.isEmpty)
        #expect(!ImageDecodingError.synchronousDecodingUnsupported.description.isEmpty)
    }

    @Test func undecodableDataFailsWithDecodingError() async throws {
        // Given
        let backend = try AppBackend()
        let noCodecs = makeAppPipeline { $0.makeImageDecoder = { _ in nil } }

        // When / Then
        do {
            _ = try await noCodecs.image(for: backend.pngURL)
            Issue.record("expected decoderNotRegistered")
        } catch {
            guard case .decoderNotRegistered(let context) = error else { throw error }
            #expect(AssetType(context.data) == .png)
        }
    }
}
