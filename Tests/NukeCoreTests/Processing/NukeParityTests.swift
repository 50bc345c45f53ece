import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

/// The identities and descriptions of the processors and thumbnail options, character for character as in
/// Nuke: identifiers end up in disk cache keys, and apps log or match descriptions.
@Suite struct NukeParityTests {
    // MARK: - Points are pixels

    @Test func pointsAndPixelsGiveIdenticalProcessors() {
        let cases: [(any ImageProcessing & Hashable, any ImageProcessing & Hashable)] = [
            (
                ImageProcessors.Resize(size: CGSize(width: 30, height: 40), unit: .points),
                ImageProcessors.Resize(size: CGSize(width: 30, height: 40), unit: .pixels)
            ),
            (ImageProcessors.Resize(width: 30, unit: .points), ImageProcessors.Resize(width: 30, unit: .pixels)),
            (ImageProcessors.Resize(height: 30, unit: .points), ImageProcessors.Resize(height: 30, unit: .pixels)),
            (
                ImageProcessors.RoundedCorners(radius: 8, unit: .points),
                ImageProcessors.RoundedCorners(radius: 8, unit: .pixels)
            ),
            (
                ImageProcessors.Circle(border: .init(color: .red, width: 2, unit: .points)),
                ImageProcessors.Circle(border: .init(color: .red, width: 2, unit: .pixels))
            ),
        ]
        for (points, pixels) in cases {
            #expect(points.identifier == pixels.identifier)
            #expect(points.hashableIdentifier == pixels.hashableIdentifier)
            #expect(points.hashableIdentifier.hashValue == pixels.hashableIdentifier.hashValue)
        }
        #expect(
            ImageProcessors.Resize(size: CGSize(width: 30, height: 40), unit: .points)
                == ImageProcessors.Resize(size: CGSize(width: 30, height: 40), unit: .pixels))
    }

    @Test func pointsAndPixelsGiveIdenticalThumbnailOptions() {
        let points = ImageRequest.ThumbnailOptions(size: CGSize(width: 64, height: 48), unit: .points)
        let pixels = ImageRequest.ThumbnailOptions(size: CGSize(width: 64, height: 48), unit: .pixels)
        #expect(points == pixels)
        #expect(points.hashValue == pixels.hashValue)
        #expect(points.identifier == pixels.identifier)
        #expect(
            ImageCacheKey(request: request(thumbnail: points)) == ImageCacheKey(request: request(thumbnail: pixels)))
    }

    // MARK: - Identifiers

    @Test(arguments: [
        (
            ImageProcessors.Resize(size: CGSize(width: 320, height: 240), unit: .pixels),
            "com.github.kean/nuke/resize?s=(320.0, 240.0),cm=.aspectFill,crop=false,upscale=false"
        ),
        (
            ImageProcessors.Resize(width: 320, unit: .pixels),
            "com.github.kean/nuke/resize?s=(320.0, 9999.0),cm=.aspectFit,crop=false,upscale=false"
        ),
        (
            ImageProcessors.Resize(height: 240, unit: .pixels, upscale: true),
            "com.github.kean/nuke/resize?s=(9999.0, 240.0),cm=.aspectFit,crop=false,upscale=true"
        ),
        (
            ImageProcessors.Resize(size: CGSize(width: 100.5, height: 33.3), unit: .pixels, crop: true),
            "com.github.kean/nuke/resize?s=(100.5, 33.29999923706055),cm=.aspectFill,crop=true,upscale=false"
        ),
        (
            ImageProcessors.Resize(size: CGSize(width: 16_777_217, height: 1e7), unit: .pixels),
            "com.github.kean/nuke/resize?s=(16777216.0, 10000000.0),cm=.aspectFill,crop=false,upscale=false"
        ),
        (
            ImageProcessors.Resize(size: CGSize(width: -0.0, height: 0), unit: .pixels),
            "com.github.kean/nuke/resize?s=(-0.0, 0.0),cm=.aspectFill,crop=false,upscale=false"
        ),
        (
            ImageProcessors.Resize(size: CGSize(width: CGFloat.infinity, height: CGFloat.nan), unit: .pixels),
            "com.github.kean/nuke/resize?s=(inf, nan),cm=.aspectFill,crop=false,upscale=false"
        ),
    ])
    func resizeIdentifier(processor: ImageProcessors.Resize, identifier: String) {
        #expect(processor.identifier == identifier)
    }

    @Test func identifiersOfTheOtherProcessors() {
        let red = ImageProcessingOptions.Border(color: .red, width: 2, unit: .pixels)
        #expect(
            ImageProcessors.RoundedCorners(radius: 16, unit: .pixels).identifier
                == "com.github.kean/nuke/rounded_corners?radius=16.0")
        #expect(
            ImageProcessors.RoundedCorners(radius: 16, unit: .pixels, border: red).identifier
                == "com.github.kean/nuke/rounded_corners?radius=16.0,border=Border(color: #FF0000, width: 2.0 pixels)")
        #expect(
            ImageProcessors.Circle(border: red).identifier
                == "com.github.kean/nuke/circle?border=Border(color: #FF0000, width: 2.0 pixels)")
        #expect(ImageProcessors.Composition([]).identifier == "")
        #expect(
            ImageProcessors.Composition([ImageProcessors.Circle(), ImageProcessors.RoundedCorners(radius: 8)])
                .identifier == "com.github.kean/nuke/circlecom.github.kean/nuke/rounded_corners?radius=8.0")
    }

    /// `Resize(width:)` records Nuke's placeholder height, so it shares its identifier (and disk cache key)
    /// with a 9999-high `.aspectFit` resize, as in Nuke; the two stay different values for the memory cache.
    @Test func widthOnlyResizeSharesNukesPlaceholderIdentifier() {
        let widthOnly = ImageProcessors.Resize(width: 320, unit: .pixels)
        let sized = ImageProcessors.Resize(
            size: CGSize(width: 320, height: 9999), unit: .pixels, contentMode: .aspectFit)
        #expect(widthOnly.identifier == sized.identifier)
        #expect(widthOnly != sized)
    }

    // MARK: - Descriptions

    @Test func descriptions() {
        let red = ImageProcessingOptions.Border(color: .red, width: 2, unit: .pixels)
        let resize = ImageProcessors.Resize(size: CGSize(width: 30, height: 30), unit: .pixels, contentMode: .aspectFit)
        #expect(
            resize.description
                == "Resize(size: (30.0, 30.0) pixels, contentMode: .aspectFit, crop: false, upscale: false)")
        #expect(
            ImageProcessors.Resize(width: 64).description
                == "Resize(size: (64.0, 9999.0) pixels, contentMode: .aspectFit, crop: false, upscale: false)")
        #expect(ImageProcessors.Circle().description == "Circle(border: nil)")
        #expect(
            ImageProcessors.Circle(border: red).description
                == "Circle(border: Border(color: #FF0000, width: 2.0 pixels))")
        #expect(
            ImageProcessors.RoundedCorners(radius: 16).description == "RoundedCorners(radius: 16.0 pixels, border: nil)"
        )
        #expect(
            ImageProcessors.RoundedCorners(radius: 4, border: red).description
                == "RoundedCorners(radius: 4.0 pixels, border: Border(color: #FF0000, width: 2.0 pixels))")
        #expect(ImageProcessors.GaussianBlur().description == "GaussianBlur(radius: 8)")
        #expect(
            ImageProcessors.Anonymous(id: "com.example/invert") { $0 }.description
                == "AnonymousProcessor(identifier: com.example/invert)")
        #expect(
            ImageProcessors.Composition([ImageProcessors.Circle()]).description
                == "Composition(processors: [Circle(border: nil)])")
        #expect(
            ImageProcessors.Crop(rect: CGRect(x: 1, y: 2, width: 3, height: 4)).description
                == "Crop(rect: (1.0, 2.0, 3.0, 4.0) pixels)")
        #expect(ImageProcessingOptions.Unit.points.description == "points")
        #expect(ImageProcessingOptions.Unit.pixels.description == "pixels")
        #expect(ImageProcessingOptions.ContentMode.aspectFill.description == ".aspectFill")
        #expect(ImageProcessingOptions.ContentMode.aspectFit.description == ".aspectFit")
    }

    // MARK: - Gaussian blur

    @Test func negativeBlurRadiusIsClampedToZero() throws {
        // Given
        let processor = ImageProcessors.GaussianBlur(radius: -8)
        let image = try TestImages.texture(width: 20, height: 10)

        // Then it is the same processor as a zero radius, and leaves the image unchanged
        #expect(processor == ImageProcessors.GaussianBlur(radius: 0))
        #expect(processor.identifier == "com.github.kean/nuke/gaussian_blur?radius=0")
        #expect(processor.hashableIdentifier == ImageProcessors.GaussianBlur(radius: 0).hashableIdentifier)
        #expect(processor.description == "GaussianBlur(radius: 0)")
        #expect(processor.process(image) == image)
        #expect(processor != ImageProcessors.GaussianBlur(radius: 1))
    }

    // MARK: - Errors

    @Test func unknownProcessingError() {
        #expect(ImageProcessingError.unknown.description == "Unknown")
        #expect("\(ImageProcessingError.unknown)" == "Unknown")
        #expect(ImageProcessingError.unknown != .processingFailed)
    }

    // MARK: - Thumbnail options

    @Test func thumbnailOptionsDefaultsAndIdentifier() {
        // Given Nuke's defaults
        var options = ImageRequest.ThumbnailOptions(maxPixelSize: 400)
        #expect(options.createThumbnailFromImageIfAbsent)
        #expect(options.createThumbnailFromImageAlways)
        #expect(options.createThumbnailWithTransform)
        #expect(options.shouldCacheImmediately)
        #expect(options.contentMode == .aspectFit)
        #expect(options.identifier == "com.github/kean/nuke/thumbnail?maxPixelSize=400.0,options=truetruetruetrue")

        // When a flag changes, Then the identity changes as it does in Nuke (the flags are in the key)
        let defaults = options
        options.createThumbnailWithTransform = false
        #expect(options.identifier == "com.github/kean/nuke/thumbnail?maxPixelSize=400.0,options=truetruefalsetrue")
        #expect(options != defaults)

        let sized = ImageRequest.ThumbnailOptions(
            size: CGSize(width: 320, height: 240), unit: .pixels, contentMode: .aspectFit)
        #expect(sized.contentMode == .aspectFit)
        #expect(ImageRequest.ThumbnailOptions(size: CGSize(width: 1, height: 1)).contentMode == .aspectFill)
        #expect(
            sized.identifier
                == "com.github/kean/nuke/thumbnail?width=320.0,height=240.0,contentMode=.aspectFit,options=truetruetruetrue"
        )
        #expect(sized.description == sized.identifier)
    }

    @Test func imageIOFlagsDoNotChangeTheThumbnail() throws {
        // Given options with every Image I/O flag off
        let image = try TestImages.texture(width: 400, height: 200)
        var options = ImageRequest.ThumbnailOptions(maxPixelSize: 100)
        options.createThumbnailFromImageIfAbsent = false
        options.createThumbnailFromImageAlways = false
        options.createThumbnailWithTransform = false
        options.shouldCacheImmediately = false

        // Then the thumbnail is the same as with the defaults
        let thumbnail = try options.makeThumbnail(from: image)
        #expect(thumbnail == (try ImageRequest.ThumbnailOptions(maxPixelSize: 100).makeThumbnail(from: image)))
        #expect(thumbnail.width == 100 && thumbnail.height == 50)
    }

    private func request(thumbnail: ImageRequest.ThumbnailOptions) -> ImageRequest {
        var request = ImageRequest(url: URL(string: "https://example.com/image.jpeg"))
        request.thumbnail = thumbnail
        return request
    }
}
