import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeTestKit
import Testing

@testable import NukeCore

@Suite struct PlatformImageTests {
    @Test func initializerValidatesDimensionsAndData() {
        #expect(throws: PlatformImage.Error.invalidDimensions(width: -1, height: 1)) {
            try PlatformImage(width: -1, height: 1, rgba: [])
        }
        #expect(throws: PlatformImage.Error.insufficientData(count: 7, required: 8)) {
            try PlatformImage(width: 2, height: 1, rgba: [UInt8](repeating: 0, count: 7))
        }
        #expect(throws: PlatformImage.Error.invalidBytesPerRow(4, minimum: 8)) {
            try PlatformImage(width: 2, height: 1, bytesPerRow: 4, rgba: [UInt8](repeating: 0, count: 8))
        }
        #expect(throws: PlatformImage.Error.invalidScale(0)) {
            try PlatformImage(width: 1, height: 1, rgba: [0, 0, 0, 0], scale: 0)
        }
        #expect(throws: PlatformImage.Error.invalidDimensions(width: Int.max, height: 2)) {
            try PlatformImage(width: Int.max, height: 2)
        }
    }

    @Test func stridedDataIsRepacked() throws {
        // 1×2 image with 8-byte rows: the padding is dropped
        let image = try PlatformImage(
            width: 1, height: 2, bytesPerRow: 8, rgba: [1, 2, 3, 255, 9, 9, 9, 9, 4, 5, 6, 255])
        #expect(image.bytesPerRow == 4)
        #expect(image.bytes == [1, 2, 3, 255, 4, 5, 6, 255])
        #expect(image.pixel(x: 0, y: 1) == .init(r: 4, g: 5, b: 6, a: 255))
        #expect(image.pixel(x: 1, y: 0) == nil)
    }

    @Test func straightAlphaIsPremultipliedAndBack() throws {
        let image = try PlatformImage(
            width: 2, height: 1, rgba: [200, 100, 50, 128, 10, 20, 30, 0], isPremultiplied: false)
        #expect(image.pixel(x: 0, y: 0) == .init(r: 100, g: 50, b: 25, a: 128))
        #expect(image.pixel(x: 1, y: 0) == .init(r: 0, g: 0, b: 0, a: 0))
        let straight = image.unpremultipliedRGBA()
        #expect(Array(straight[0..<4]) == [199, 100, 50, 128])
    }

    @Test func copyOnWrite() throws {
        let original = try PlatformImage(width: 1, height: 1, rgba: [1, 2, 3, 4])
        var copy = original
        copy.setPixel(.init(r: 9, g: 9, b: 9, a: 9), x: 0, y: 0)
        #expect(original.pixel(x: 0, y: 0) == .init(r: 1, g: 2, b: 3, a: 4))
        #expect(copy.pixel(x: 0, y: 0) == .init(r: 9, g: 9, b: 9, a: 9))
    }

    @Test func sizeInPoints() throws {
        let image = try PlatformImage(width: 200, height: 100, scale: 2)
        #expect(image.size.width == 100)
        #expect(image.size.height == 50)
        #expect(PlatformImage().isEmpty)
    }
}

@Suite struct ImageRequestTests {
    @Test func imageIDPrefersTheOverride() {
        let url = Fixtures.url("a")
        #expect(ImageRequest(url: url).imageID == url.absoluteString)
        #expect(ImageRequest(url: url, userInfo: [.imageIdKey: "custom"]).imageID == "custom")
        #expect(ImageRequest(id: "blob", data: { Data() }).imageID == "blob")
        #expect(ImageRequest(url: nil).imageID == nil)
    }

    @Test func keysSeparateWhatChangesTheWork() {
        let url = Fixtures.url("a")
        let plain = ImageRequest(url: url)
        var thumbnail = plain
        thumbnail.thumbnail = .init(maxPixelSize: 64)
        let processed = ImageRequest(url: url, processors: [MockImageProcessor(id: "p")])

        #expect(DataKey(plain) == DataKey(thumbnail))
        #expect(DataKey(plain) == DataKey(processed))
        #expect(ImageKey(plain) != ImageKey(thumbnail))
        #expect(ImageKey(plain) == ImageKey(processed))
        #expect(LoadKey(plain) != LoadKey(processed))
        #expect(LoadKey(plain) == LoadKey(ImageRequest(url: url, priority: .veryHigh)))
        #expect(LoadKey(plain) != LoadKey(ImageRequest(url: url, options: [.disableMemoryCacheReads])))
    }

    @Test func keysMadeFromAStageAboveEqualAndHashLikeKeysMadeFromTheRequest() {
        // Given requests that differ in what each key includes
        let url = Fixtures.url("a")
        var thumbnail = ImageRequest(url: url, processors: [MockImageProcessor(id: "p")])
        thumbnail.thumbnail = .init(maxPixelSize: 64)
        let requests = [
            ImageRequest(url: url), ImageRequest(url: Fixtures.url("b")), thumbnail,
            ImageRequest(url: url, processors: [MockImageProcessor(id: "p")]),
            ImageRequest(url: url, options: [.returnCacheDataDontLoad]),
            ImageRequest(urlRequest: URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)),
            ImageRequest(id: "blob", data: { Data() }),
        ]

        for request in requests {
            // When a stage makes its key from the key of the stage above it
            let data = DataKey(request)
            let image = ImageKey(data: data, request: request)
            let load = LoadKey(image: image, request: request)

            // Then it is the key the request makes, with the same hash
            #expect(image == ImageKey(request) && image.hashValue == ImageKey(request).hashValue)
            #expect(load == LoadKey(request) && load.hashValue == LoadKey(request).hashValue)
            #expect(data.hashValue == DataKey(request).hashValue)
        }
        // And keys of different requests stay apart
        #expect(Set(requests.map(LoadKey.init)).count == requests.count)
        #expect(Set(requests.map(DataKey.init)).count == 5)  // Processors and thumbnails share the bytes.
    }

    @Test func thumbnailTargetSize() {
        let fit = ImageRequest.ThumbnailOptions(maxPixelSize: 100)
        #expect(fit.targetPixelSize(width: 400, height: 200) == (100, 50))
        #expect(fit.targetPixelSize(width: 50, height: 20) == (50, 20))  // no upscaling
        #expect(fit.targetPixelSize(width: 10_000, height: 1) == (100, 1))  // never 0 pixels
        let fill = ImageRequest.ThumbnailOptions(size: CGSize(width: 50, height: 50), unit: .points)
        #expect(fill.targetPixelSize(width: 400, height: 200, scale: 2) == (100, 50))  // a point is a pixel
        let pixelsFit = ImageRequest.ThumbnailOptions(
            size: CGSize(width: 100, height: 100), unit: .pixels, contentMode: .aspectFit)
        #expect(pixelsFit.targetPixelSize(width: 400, height: 200) == (100, 50))
        #expect(fit.identifier != pixelsFit.identifier)
    }

    @Test func compositionFlattensAndHashesByParts() throws {
        let a = MockImageProcessor(id: "a")
        let b = MockImageProcessor(id: "b")
        let nested = ImageProcessors.Composition([ImageProcessors.Composition([a]), b])
        #expect(nested == ImageProcessors.Composition([a, b]))
        #expect(nested.identifier == "ab")
        let image = Fixtures.solidImage(width: 1, height: 1, color: .init(r: 0, g: 0, b: 0))
        let request = ImageRequest(url: nil)
        let context = ImageProcessingContext(
            request: request, response: ImageResponse(container: ImageContainer(image: image), request: request),
            isCompleted: true)
        let output = try nested.process(ImageContainer(image: image), context: context)
        #expect(output.userInfo[MockImageProcessor.processorIDsKey] as? [String] == ["a", "b"])
    }

    @Test func anonymousProcessorRunsItsClosure() {
        let processor = ImageProcessors.Anonymous(id: "flip") { _ in nil }
        #expect(processor.identifier == "flip")
        #expect(processor.process(PlatformImage()) == nil)
    }
}

@Suite struct ImageDecoderRegistryTests {
    private func context(_ bytes: [UInt8]) -> ImageDecodingContext {
        ImageDecodingContext(request: ImageRequest(url: nil), data: Data(bytes))
    }

    @Test func latestRegistrationIsAskedFirst() {
        let registry = ImageDecoderRegistry()
        registry.register { _ in MockImageDecoder(name: "first") }
        registry.register { _ in MockImageDecoder(name: "second") }
        #expect((registry.decoder(for: context([1])) as? MockImageDecoder)?.name == "second")
    }

    @Test func fallsThroughFactoriesThatDecline() {
        let registry = ImageDecoderRegistry()
        registry.register { _ in MockImageDecoder(name: "any") }
        registry.register { context in context.type == .png ? MockImageDecoder(name: "png") : nil }
        #expect((registry.decoder(for: context([1, 2])) as? MockImageDecoder)?.name == "any")
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect((registry.decoder(for: context(png)) as? MockImageDecoder)?.name == "png")
    }

    @Test func unregisterRemovesOnlyThatFactory() {
        let registry = ImageDecoderRegistry()
        registry.register { _ in MockImageDecoder(name: "kept") }
        let token = registry.register { _ in MockImageDecoder(name: "removed") }
        registry.unregister(token)
        registry.unregister(token)
        #expect((registry.decoder(for: context([1])) as? MockImageDecoder)?.name == "kept")
        registry.clear()
        #expect(registry.decoder(for: context([1])) == nil)
    }

    @Test func factoriesRunOutsideTheLock() {
        // A factory that uses the registry would deadlock if called under its lock.
        let registry = ImageDecoderRegistry()
        registry.register { context in
            registry.register { _ in nil }
            return MockImageDecoder(name: "reentrant")
        }
        #expect((registry.decoder(for: context([1])) as? MockImageDecoder)?.name == "reentrant")
    }

    @Test func emptyDecoderKeepsTheData() throws {
        let data = Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0])
        let container = try ImageDecoders.Empty().decode(data)
        #expect(container.image.isEmpty)
        #expect(container.data == data)
        #expect(container.type == nil)  // The given asset type, as in Nuke (the pipeline fills in the sniffed one).
        #expect(try ImageDecoders.Empty(assetType: .gif).decode(data).type == .gif)
        #expect(ImageDecoders.Empty().decodePartiallyDownloadedData(data) == nil)
        #expect(ImageDecoders.Empty(isProgressive: true).decodePartiallyDownloadedData(data)?.isPreview == true)
    }
}
