import LoaderCurl
import LoaderURLSession
import NukeCore
import NukeTestKit
import Testing

/// The loader plugins the integration scenarios run against.
enum LoaderKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl
    case urlSession

    func makeLoader() -> any DataLoading {
        switch self {
        case .curl: CurlDataLoader()
        case .urlSession: DataLoader()
        }
    }

    var testDescription: String { rawValue }
}

/// A pipeline that loads with `kind` from a real loopback server and decodes with the mock decoder (1×1
/// images from the first bytes), with no memory cache, so every scenario reaches the network.
func makePipeline(
    _ kind: LoaderKind, configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
) -> ImagePipeline {
    ImagePipeline {
        $0.dataLoader = kind.makeLoader()
        $0.imageCache = nil
        $0.makeImageDecoder = { _ in MockImageDecoder() }
        configure(&$0)
    }
}

extension ImageTask {
    /// Waits for the first progress event (the first bytes arrived); `false` if the task finished first.
    func firstProgress() async -> Bool {
        for await event in events {
            switch event {
            case .progress: return true
            case .finished: return false
            case .started, .preview: continue
            }
        }
        return false
    }

    /// The task's result without throwing.
    var result: Result<ImageResponse, ImagePipeline.Error> {
        get async {
            do throws(ImagePipeline.Error) {
                return .success(try await response)
            } catch {
                return .failure(error)
            }
        }
    }
}
