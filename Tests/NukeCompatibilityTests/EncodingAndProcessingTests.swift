import Foundation
import Nuke
import NukeTestKit
import Testing

/// `ImageEncoders.Default`, `ImageEncodingContext`, and every processor and factory.
@Suite struct EncodingAndProcessingTests {
    private let photo = Fixtures.solidImage(width: 40, height: 20, color: .init(r: 250, g: 250, b: 250))

    @Test func defaultEncoderAndContext() throws {
        // Given
        var opaque = photo
        opaque.isOpaque = true
        var encoder = ImageEncoders.Default(compressionQuality: 0.5)
        encoder.isHEIFPreferred = false
        let factory: any ImageEncoding = .default(compressionQuality: 0.7)
        let context = ImageEncodingContext(request: ImageRequest(url: nil), image: opaque, urlResponse: nil)

        // When
        let data = try #require(encoder.encode(ImageContainer(image: opaque), context: context))

        // Then
        #expect(AssetType(data) == .jpeg && encoder.compressionQuality == 0.5)
        #expect([.png, .jpeg].contains(AssetType(try #require(factory.encode(photo)))))
        #expect(context.image == opaque && context.request.url == nil && context.urlResponse == nil)
    }

    @Test func everyProcessorThroughThePipeline() async throws {
        // Given one request per processor
        let backend = try AppBackend()
        let pipeline = makeAppPipeline { $0.dataCache = InMemoryDataCache() }
        let border = ImageProcessingOptions.Border(color: .red, width: 2)
        let processors: [[any ImageProcessing]] = [
            [.resize(width: 32)],
            [.resize(height: 12)],
            [
                .resize(
                    size: CGSize(width: 16, height: 16), unit: .pixels, contentMode: .aspectFill, crop: true,
                    upscale: false)
            ],
            [.circle(border: border)],
            [.roundedCorners(radius: 8, unit: .points, border: border)],
            [.gaussianBlur(radius: 4)],
            [ImageProcessors.Composition([ImageProcessors.Resize(width: 20), ImageProcessors.Circle()])],
            [.process(id: "flip") { image in image }],
            [ImageProcessors.Anonymous(id: "identity") { $0 }],
        ]

        // When
        var sizes: [CGSize] = []
        for processors in processors {
            let request = ImageRequest(url: backend.pngURL, processors: processors)
            sizes.append(try await pipeline.image(for: request).size)
        }

        // Then
        let source = CGSize(width: SampleImages.width, height: SampleImages.height)
        #expect(sizes[0] == CGSize(width: 32, height: 24))
        #expect(sizes[1] == CGSize(width: 16, height: 12))
        #expect(sizes[2] == CGSize(width: 16, height: 16))
        #expect(sizes[3] == CGSize(width: 48, height: 48))
        #expect(sizes[4] == source && sizes[5] == source && sizes[7] == source && sizes[8] == source)
        #expect(sizes[6] == CGSize(width: 15, height: 15))
        #expect(backend.requestCount("/photo.png") == 1)
    }

    @Test func processorsIdentityAndDescriptions() throws {
        // Given
        let resize = ImageProcessors.Resize(size: CGSize(width: 10, height: 10), unit: .points, contentMode: .aspectFit)
        let corners = ImageProcessors.RoundedCorners(radius: 4, unit: .pixels, border: nil)
        let blur = ImageProcessors.GaussianBlur(radius: 3)
        let circle = ImageProcessors.Circle(
            border: ImageProcessingOptions.Border(color: .white, width: 1, unit: .pixels))
        let composition = ImageProcessors.Composition([resize, corners])

        // Then
        #expect(
            resize
                == ImageProcessors.Resize(size: CGSize(width: 10, height: 10), unit: .points, contentMode: .aspectFit))
        #expect(resize.identifier != corners.identifier && blur.identifier != circle.identifier)
        #expect(composition == ImageProcessors.Composition([resize, corners]))
        #expect(composition.hashableIdentifier == ImageProcessors.Composition([resize, corners]).hashableIdentifier)
        for description in [
            resize.description, corners.description, blur.description, circle.description, composition.description,
        ] {
            #expect(!description.isEmpty)
        }
        #expect(ImageProcessors.Anonymous(id: "x") { $0 }.description.contains("x"))
        #expect(ImageProcessingOptions.Unit.points.description != ImageProcessingOptions.Unit.pixels.description)
        #expect(
            ImageProcessingOptions.ContentMode.aspectFill.description
                != ImageProcessingOptions.ContentMode.aspectFit.description)
        let border = ImageProcessingOptions.Border(color: .red, width: 2)
        #expect(border.width == 2 && border.color == .red && !border.description.isEmpty)
        #expect(resize.process(photo)?.size == CGSize(width: 10, height: 5))
    }

    @Test func processingContextAndErrors() async throws {
        // Given a processor written by the app that fails, and the container API
        struct Failing: ImageProcessing {
            var identifier: String { "com.example.failing" }
            func process(_ image: PlatformImage) -> PlatformImage? { nil }
        }
        let request = ImageRequest(id: "img", data: { try SampleImages.png() }, processors: [Failing()])
        let response = ImageResponse(container: ImageContainer(image: photo), request: request)
        let context = ImageProcessingContext(request: request, response: response, isCompleted: true)
        let resized = try ImageProcessors.Resize(width: 10).process(ImageContainer(image: photo), context: context)
        let composed = try ImageProcessors.Composition([ImageProcessors.Resize(width: 10)])
            .process(ImageContainer(image: photo), context: context)

        // When
        do {
            _ = try await makeAppPipeline().image(for: request)
            Issue.record("expected processingFailed")
        } catch {
            // Then
            guard case .processingFailed(let processor, let failedContext, let underlying) = error else { throw error }
            #expect(processor.identifier == "com.example.failing" && failedContext.isCompleted)
            #expect(underlying is ImageProcessingError)
        }
        #expect(resized.image.width == 10 && composed.image.width == 10 && context.response.image == photo)
        #expect(!ImageProcessingError.unknown.description.isEmpty)
    }
}
