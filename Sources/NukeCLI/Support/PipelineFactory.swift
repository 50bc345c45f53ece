import Foundation
import LoaderURLSession
import Nuke

/// Builds the pipelines of the commands: the chosen loader and every codec, wrapped so ``Counters`` see each
/// download and decode; a fresh memory cache; the disk cache only if given.
enum PipelineFactory {
    /// The loaders `--loader` accepts.
    enum Loader: String {
        case curl, urlsession

        init(argument: String) throws {
            guard let loader = Loader(rawValue: argument.lowercased()) else {
                throw UsageError("unknown loader '\(argument)' (use curl or urlsession)")
            }
            self = loader
        }

        func make() -> any DataLoading {
            switch self {
            case .curl: CurlDataLoader()
            case .urlsession: DataLoader()
            }
        }
    }

    static func make(
        loader: Loader = .curl,
        dataCache: (any DataCaching)? = nil,
        counters: Counters,
        delegate: (any ImagePipeline.Delegate)? = nil,
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) -> ImagePipeline {
        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        var configuration = ImagePipeline.Configuration(
            dataLoader: CountingDataLoader(base: loader.make(), counters: counters), imageCache: ImageCache())
        configuration.dataCache = dataCache
        configuration.makeImageDecoder = { context in
            registry.decoder(for: context).map {
                CountingDecoder(base: $0, counters: counters, key: Counters.imageKey(context.request))
            }
        }
        configure(&configuration)
        return ImagePipeline(configuration: configuration, delegate: delegate)
    }

    /// Opens the disk cache at `path` (relative paths start in the current directory).
    static func openCache(at path: String) throws -> DataCache {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return try DataCache(path: URL(fileURLWithPath: path, isDirectory: true, relativeTo: base).standardizedFileURL)
    }
}
