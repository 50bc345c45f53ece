import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing

@testable import NukeCore

/// A decoder for the tests in this file: 1×1 image whose pixel is the first four bytes of the data.
private struct FirstBytesDecoder: ImageDecoding {
    func decode(_ data: Data) throws -> ImageContainer {
        var bytes = Array(data.prefix(4))
        bytes += [UInt8](repeating: 0, count: 4 - bytes.count)
        return ImageContainer(image: try PlatformImage(width: 1, height: 1, rgba: bytes))
    }
}

@Suite struct LocalResourceTests {
    private func makePipeline() -> ImagePipeline {
        ImagePipeline {
            $0.imageCache = nil
            $0.makeImageDecoder = { _ in FirstBytesDecoder() }
        }
    }

    @Test func loadsFileURL() async throws {
        // Given a file on disk
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("image.bin")
        try Data([10, 20, 30, 255, 1, 2]).write(to: url)

        // When
        let image = try await makePipeline().image(for: url)

        // Then
        #expect(image.pixel(x: 0, y: 0) == PlatformImage.RGBA(r: 10, g: 20, b: 30, a: 255))
    }

    @Test func loadsBase64DataURL() async throws {
        let url = try #require(URL(string: "data:image/x-test;base64,\(Data([1, 2, 3, 255]).base64EncodedString())"))
        let (data, response) = try await makePipeline().data(for: url)
        #expect(data == Data([1, 2, 3, 255]))
        #expect(response?.mimeType == "image/x-test")
        let image = try await makePipeline().image(for: url)
        #expect(image.pixel(x: 0, y: 0) == PlatformImage.RGBA(r: 1, g: 2, b: 3, a: 255))
    }

    @Test func loadsPercentEncodedDataURL() async throws {
        let url = try #require(URL(string: "data:,AB%43D"))
        let (data, _) = try await makePipeline().data(for: url)
        #expect(data == Data("ABCD".utf8))
    }

    @Test func missingFileFailsWithTypedError() async throws {
        let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).png")
        await #expect {
            _ = try await makePipeline().image(for: url)
        } throws: { error in
            guard case let .dataLoadingFailed(underlying) = error as? ImagePipeline.Error else { return false }
            return (underlying as? LocalDataLoader.Error) == .fileNotFound(url.path)
        }
    }

    @Test func malformedDataURLFails() async throws {
        let url = try #require(URL(string: "data:image/png;base64"))
        await #expect {
            _ = try await makePipeline().image(for: url)
        } throws: { error in
            guard case let .dataLoadingFailed(underlying) = error as? ImagePipeline.Error else { return false }
            if case .invalidDataURL = underlying as? LocalDataLoader.Error { return true }
            return false
        }
    }

    @Test func emptyFileFailsWithDataIsEmpty() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).bin")
        try Data().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        await #expect {
            _ = try await makePipeline().image(for: url)
        } throws: { error in
            if case .dataIsEmpty = error as? ImagePipeline.Error { return true }
            return false
        }
    }

    @Test func httpWithoutLoaderExplainsWhatToInstall() async throws {
        let url = try #require(URL(string: "https://example.com/image.png"))
        await #expect {
            _ = try await makePipeline().image(for: url)
        } throws: { error in
            guard let error = error as? ImagePipeline.Error, case let .dataLoadingFailed(underlying) = error,
                underlying is MissingDataLoaderError
            else { return false }
            return error.description.contains("CurlDataLoader") && error.description.contains("https:")
        }
    }
}
