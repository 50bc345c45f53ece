import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite struct MockImageDecoderTests {
    @Test func pixelIsTheFirstFourBytes() throws {
        let counter = CallCounter()
        let decoder = MockImageDecoder(counter: counter)
        let container = try decoder.decode(Data([10, 20, 30, 40, 50]))
        #expect(container.image.width == 1)
        #expect(container.image.height == 1)
        #expect(container.image.pixel(x: 0, y: 0) == PlatformImage.RGBA(r: 10, g: 20, b: 30, a: 40))
        #expect(!container.isPreview)
        #expect(counter.count("MockImageDecoder") == 1)
    }

    @Test func shortDataIsZeroPadded() throws {
        let container = try MockImageDecoder().decode(Data([7, 8]))
        #expect(container.image.pixel(x: 0, y: 0) == PlatformImage.RGBA(r: 7, g: 8, b: 0, a: 0))
    }

    @Test func differentDataGivesDifferentImages() throws {
        let decoder = MockImageDecoder()
        #expect(try decoder.decode(Data([1])).image != decoder.decode(Data([2])).image)
    }

    @Test func typeIsSniffedFromData() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
        #expect(try MockImageDecoder().decode(png).type == .png)
        #expect(try MockImageDecoder().decode(Data([1, 2, 3])).type == nil)
    }

    @Test func emptyDataThrowsAndIsCounted() {
        let counter = CallCounter()
        let decoder = MockImageDecoder(counter: counter, name: "d")
        #expect(throws: MockImageDecoder.Error.emptyData) { try decoder.decode(Data()) }
        #expect(counter.count("d") == 1)
    }

    @Test func failingDecoderAlwaysThrows() {
        let counter = CallCounter()
        let decoder = MockImageDecoder.failing(counter: counter)
        #expect(throws: MockImageDecoder.Error.scriptedFailure) { try decoder.decode(Data([1, 2, 3, 4])) }
        #expect(decoder.decodePartiallyDownloadedData(Data([1])) == nil)
        #expect(counter.count("MockImageDecoder") == 1)
    }

    @Test func partialDecodeReturnsPreviewAndCountsSeparately() {
        let counter = CallCounter()
        let decoder = MockImageDecoder(counter: counter, name: "d")
        let preview = decoder.decodePartiallyDownloadedData(Data([1, 2, 3, 4]))
        #expect(preview?.isPreview == true)
        #expect(preview?.image.pixel(x: 0, y: 0) == PlatformImage.RGBA(r: 1, g: 2, b: 3, a: 4))
        #expect(decoder.decodePartiallyDownloadedData(Data()) == nil)
        #expect(counter.count("d.partial") == 2)
        #expect(counter.count("d") == 0)
    }
}

@Suite struct MockImageEncoderTests {
    private let image = Fixtures.solidImage(width: 2, height: 2, color: .init(r: 0, g: 0, b: 0))

    @Test func returnsResultAndCounts() {
        let counter = CallCounter()
        let encoder = MockImageEncoder(counter: counter)
        #expect(encoder.encode(image) == Data("MOCK".utf8))
        let context = ImageEncodingContext(request: ImageRequest(url: Fixtures.url("a")), image: image)
        #expect(encoder.encode(ImageContainer(image: image), context: context) == Data("MOCK".utf8))
        #expect(counter.count(MockImageEncoder.counterKey) == 2)
    }

    @Test func nilResultSimulatesFailure() {
        #expect(MockImageEncoder(result: nil).encode(image) == nil)
    }
}
