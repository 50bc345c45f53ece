import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite struct MockImageProcessorTests {
    private let image = Fixtures.solidImage(width: 2, height: 1, color: .init(r: 9, g: 9, b: 9))

    private func context(_ container: ImageContainer) -> ImageProcessingContext {
        let request = ImageRequest(url: Fixtures.url("p"))
        return ImageProcessingContext(
            request: request,
            response: ImageResponse(container: container, request: request),
            isCompleted: true
        )
    }

    @Test func appendsIDsInOrderAndCounts() throws {
        let counter = CallCounter()
        let first = MockImageProcessor(id: "a", counter: counter)
        let second = MockImageProcessor(id: "b", counter: counter)
        var container = ImageContainer(image: image)
        container = try first.process(container, context: context(container))
        container = try second.process(container, context: context(container))
        container = try first.process(container, context: context(container))

        #expect(container.userInfo[MockImageProcessor.processorIDsKey] as? [String] == ["a", "b", "a"])
        #expect(container.image == image)
        #expect(counter.count("a") == 2)
        #expect(counter.count("b") == 1)
        #expect(counter.total == 3)
    }

    @Test func compositionAppliesInOrder() throws {
        let composition = ImageProcessors.Composition([MockImageProcessor(id: "x"), MockImageProcessor(id: "y")])
        let container = ImageContainer(image: image)
        let output = try composition.process(container, context: context(container))
        #expect(output.userInfo[MockImageProcessor.processorIDsKey] as? [String] == ["x", "y"])
    }

    @Test func imageProcessingReturnsImageUnchanged() {
        let counter = CallCounter()
        #expect(MockImageProcessor(id: "a", counter: counter).process(image) == image)
        #expect(counter.count("a") == 1)
    }

    @Test func identityIgnoresCounter() {
        let first = MockImageProcessor(id: "a", counter: CallCounter())
        let second = MockImageProcessor(id: "a")
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.hashableIdentifier == second.hashableIdentifier)
        #expect(first != MockImageProcessor(id: "b"))
        #expect(first.identifier == "a")
    }
}

@Suite struct MockFailingProcessorTests {
    @Test func alwaysFails() {
        let processor = MockFailingProcessor()
        let image = Fixtures.solidImage(width: 1, height: 1, color: .init(r: 0, g: 0, b: 0))
        #expect(processor.identifier == "failing")
        #expect(MockFailingProcessor(id: "x").identifier == "x")
        #expect(processor.process(image) == nil)

        let request = ImageRequest(url: Fixtures.url("p"))
        let container = ImageContainer(image: image)
        let context = ImageProcessingContext(
            request: request,
            response: ImageResponse(container: container, request: request),
            isCompleted: true
        )
        #expect(throws: ImageProcessingError.processingFailed) {
            try processor.process(container, context: context)
        }
    }
}
