import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

@Suite struct ThumbnailResizeTests {
    @Test func maxPixelSizeFitsTheLongerSide() throws {
        let image = try TestImages.texture(width: 400, height: 200)
        let thumbnail = try ImageRequest.ThumbnailOptions(maxPixelSize: 100).makeThumbnail(from: image)
        #expect(thumbnail.width == 100 && thumbnail.height == 50)
    }

    @Test func sizeInPointsIsInPixelsWhateverTheScale() throws {
        // Given a 400×200 image and a 50×50-point fill thumbnail (50×50 pixels on Linux)
        let image = try TestImages.texture(width: 400, height: 200)
        let options = ImageRequest.ThumbnailOptions(size: CGSize(width: 50, height: 50), contentMode: .aspectFill)

        // When the thumbnail is made, with and without a scale
        let thumbnail = try options.makeThumbnail(from: image, scale: 2)

        // Then it covers 50×50 pixels either way: the scale is ignored
        #expect(thumbnail.width == 100 && thumbnail.height == 50)
        #expect(try options.makeThumbnail(from: image) == thumbnail)
        let fit = ImageRequest.ThumbnailOptions(
            size: CGSize(width: 100, height: 100), unit: .pixels, contentMode: .aspectFit)
        let fitted = try fit.makeThumbnail(from: image)
        #expect(fitted.width == 100 && fitted.height == 50)
    }

    @Test func smallImagesAreReturnedUnchanged() throws {
        let image = try TestImages.texture(width: 30, height: 20)
        #expect(try ImageRequest.ThumbnailOptions(maxPixelSize: 100).makeThumbnail(from: image) == image)
        #expect(try ImageRequest.ThumbnailOptions(maxPixelSize: 10).makeThumbnail(from: PlatformImage()).isEmpty)
    }

    @Test func invalidOptionsThrow() throws {
        let image = try TestImages.texture(width: 30, height: 20)
        for options in [
            ImageRequest.ThumbnailOptions(maxPixelSize: 0), ImageRequest.ThumbnailOptions(maxPixelSize: -5),
            ImageRequest.ThumbnailOptions(maxPixelSize: .nan),
            ImageRequest.ThumbnailOptions(size: CGSize(width: 0, height: 10)),
        ] {
            #expect(throws: ImageProcessingError.self) { try options.makeThumbnail(from: image) }
        }
    }

    @Test func thumbnailMatchesTheResizeProcessor() throws {
        let image = try TestImages.texture(width: 300, height: 300)
        let thumbnail = try ImageRequest.ThumbnailOptions(maxPixelSize: 64).makeThumbnail(from: image)
        let resized = try #require(ImageProcessors.Resize(width: 64, unit: .pixels).process(image))
        #expect(thumbnail == resized)
    }
}

/// Decodes any data into a solid 400×200 image.
private struct SolidImageDecoder: ImageDecoding {
    func decode(_ data: Data) throws -> ImageContainer {
        ImageContainer(image: try TestImages.solid(width: 400, height: 200, color: .init(r: 5, g: 6, b: 7)))
    }
}

@Suite struct ProcessorPipelineTests {
    private func makePipeline() -> ImagePipeline {
        let loader = MockDataLoader()
        return ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in SolidImageDecoder() }
        }
    }

    @Test func requestWithProcessorsProducesTheProcessedImage() async throws {
        // Given a request with a resize and rounded corners
        let request = ImageRequest(
            url: Fixtures.url("photo"),
            processors: [
                .resize(size: CGSize(width: 100, height: 100), unit: .pixels, contentMode: .aspectFit),
                .roundedCorners(radius: 8, unit: .pixels),
            ])

        // When it is loaded
        let image = try await makePipeline().image(for: request)

        // Then
        #expect(image.width == 100 && image.height == 50)
        #expect(image.pixel(x: 0, y: 0)?.a == 0)
        #expect(image.pixel(x: 50, y: 25) == .init(r: 5, g: 6, b: 7))
    }

    @Test func invalidProcessorFailsWithProcessingFailed() async throws {
        // Given a request whose resize target is zero
        let request = ImageRequest(url: Fixtures.url("photo"), processors: [.resize(size: .zero)])

        // When it is loaded
        let task = makePipeline().imageTask(with: request)

        // Then it fails with processingFailed and the typed cause
        guard case let .failure(error) = await task.result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.caseName == "processingFailed")
        #expect(error.underlyingError as? ImageProcessingError == .invalidTargetSize(width: 0, height: 0))
        #expect(error.description.contains("Resize"))
    }
}
